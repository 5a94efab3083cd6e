import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api, Outcome } from './api.ts';
import type { Auth } from './auth.ts';
import type { ServiceClock } from './clock.ts';
import type { ScanRules } from './config.ts';
import type { Tone } from './feedback.ts';
import type { Key, Lang } from './i18n.ts';
import type { ScanStore } from './queue.ts';
import type { LocationRegister } from './register.ts';

/** What the banner at the top says after a scan or an answer. */
export interface Notice {
  readonly tone: Tone | 'info';
  readonly text: string;
  /** What to do about it (a refusal's instruction). */
  readonly detail?: string;
  readonly code?: string;
  /** The service's own message, one tap away ("Details") for support. */
  readonly serverMessage?: string;
  /** The service's id of the request refused, for a refusal the operator reports (shown small, selectable). */
  readonly requestId?: string;
}

/** The app's state and services, in one place, handed to every screen. */
export interface AppState {
  readonly api: Api;
  readonly auth: Auth;
  /** The user signed in on this device (whose name their scans are kept and uploaded under). */
  readonly user: string | undefined;
  readonly lang: Lang;
  /** The service registers zongpais by SSCC (`config.json`'s `sscc_enabled`). */
  readonly ssccEnabled: boolean;
  /** The deployment's code patterns and ENFORCE_ERP_PLAN (`config.json`): scans are checked with them. */
  readonly rules: ScanRules;
  readonly t: (key: Key, vars?: Record<string, string | number>) => string;
  readonly deviceId: string;
  /** The service's time as the device knows it: location scans are stamped with it. */
  readonly clock: ServiceClock;
  readonly store: ScanStore;
  /** The device's copy of the location register (scans are told apart with it, offline too). */
  readonly register: LocationRegister;
  /** Shows the notice with its tone, vibration and colour. */
  readonly notify: (notice: Notice) => void;
  /** Takes the last answer off the banner: a step of the screen is the news now (no empty banner is left). */
  readonly clearNotice: () => void;
  /** Shows what went wrong with a call: no network, or the service's refusal and what to do. */
  readonly refused: (outcome: Exclude<Outcome<unknown>, { ok: true }>) => void;
  /** Asks the location uploader to send what waits. */
  readonly upload: () => void;
}

export const AppContext = createContext<AppState | undefined>(undefined);

export const useApp = (): AppState => {
  const state = useContext(AppContext);
  if (state === undefined) throw new Error('useApp outside the app');
  return state;
};
