import { useState } from 'preact/hooks';
import type { CargoLocation } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { sentences, when } from '../i18n.ts';
import { useLatestLoads } from '../latest.ts';
import { refusalAtScan } from '../refused-scan.ts';
import { classifyScan } from '../register.ts';
import { ScanField } from '../scan-field.tsx';
import { LocationContentPanel } from './location-content.tsx';
import { canVoid } from './progress.ts';
import { VoidScanButton } from './void-scan.tsx';

/**
 * Find: where a box or zongpai is now (itself or through its zongpai), what else is there, and
 * where it was; a supervisor voids a wrong scan from its history.
 */
export const FindScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [found, setFound] = useState<CargoLocation | undefined>();
  /** A boxed box never scanned at a location: the zongpai it is on (its boxes follow the zongpai). */
  const [unplaced, setUnplaced] = useState<{ box_no: string; zongpai_no: string } | undefined>();
  const { latest, drop } = useLatestLoads();

  /**
   * A cargo the service never saw at a location: a boxed box is not a refusal, it waits on its
   * zongpai for that to be located; shown with the zongpai, in the warning tone, not the error tone.
   */
  const onZongpai = async (code: string): Promise<boolean> => {
    const info = await latest(api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } })));
    if (info?.ok !== true || info.data.status !== 'BOXED' || info.data.zongpai_no === null) return false;
    setUnplaced({ box_no: info.data.box_no, zongpai_no: info.data.zongpai_no });
    app.notify({
      tone: 'warn',
      text: `${info.data.box_no}: ${t('notLocatedYet')}`,
      detail: sentences(app.lang, t('onZongpai', { zongpai: info.data.zongpai_no }), t('locateTheZongpai')),
      code: 'NOT_LOCATED',
    });
    return true;
  };

  /** The cargo scanned last (or reloaded after a void); undefined when refused or superseded. */
  const load = async (code: string, quiet = false) => {
    const outcome = await latest(
      api.run(api.client.GET('/v1/cargo/location/{cargo_no}', { params: { path: { cargo_no: code } } })),
    );
    if (outcome === undefined) return undefined;
    if (!outcome.ok) {
      // A reload after a void that fails leaves the screen as the void left it.
      if (quiet) return undefined;
      setFound(undefined);
      setUnplaced(undefined);
      if (!('offline' in outcome) && outcome.error.error_code === 'CARGO_NOT_FOUND' && (await onZongpai(code)))
        return undefined;
      app.refused(outcome);
      return undefined;
    }
    setUnplaced(undefined);
    setFound(outcome.data);
    app.register.rememberCargo([outcome.data.cargo_no]);
    return outcome.data;
  };
  const onScan = async (raw: string) => {
    // The last scan wins: a scan refused at once drops the answer still under way for the one before.
    drop();
    // Told apart at the scan, also offline: a location label or no cargo number at all.
    const scanned = classifyScan(app.register, raw, app.rules);
    if (scanned.kind !== 'cargo') {
      setFound(undefined);
      setUnplaced(undefined);
      return app.notify(refusalAtScan(app.lang, scanned.kind === 'location' ? 'CARGO_IS_LOCATION' : 'INVALID_BOX_NO'));
    }
    const code = scanned.code;
    const data = await load(code);
    if (data !== undefined) {
      app.notify({ tone: 'ok', text: `${data.cargo_no} → ${data.current?.location_code ?? t('noCurrent')}` });
    }
  };
  const supervisor = app.auth.isSupervisor();

  return (
    <section class="screen" aria-label={t('find')}>
      <ScanField label={t('scanAny')} onScan={(code) => void onScan(code)} />
      {unplaced !== undefined && (
        <div class="card" data-testid="unplaced">
          <p class="muted">
            <Code code={unplaced.box_no} /> · {t('notLocatedYet')}
          </p>
          <p>{t('pallet')}</p>
          <p class="big" data-testid="unplaced-zongpai">
            <Code code={unplaced.zongpai_no} />
          </p>
          <p>{t('locateTheZongpai')}</p>
        </div>
      )}
      {found !== undefined && (
        <>
          <CurrentCard current={found.current} />
          {found.current !== null && (
            <LocationContentPanel key={found.current.location_code} location={found.current.location_code} />
          )}
          <h2>{t('history')}</h2>
          <ul class="history">
            {found.history.map((h) => (
              <li key={h.id} data-voided={h.voided_at !== null}>
                <b>
                  <Code code={h.location_code} />
                </b>{' '}
                {h.off_shelf ? `(${t('offShelf')})` : ''}{' '}
                <span class="muted">
                  {when(h.occurred_at)} · {t('by', { who: h.recorded_by })}
                </span>
                {h.voided_at !== null && <small class="voided"> {t('voided', { who: h.voided_by ?? '' })}</small>}
                {canVoid(h, supervisor) && (
                  <VoidScanButton
                    record={h}
                    onVoided={(v) => {
                      setFound({
                        ...found,
                        history: found.history.map((r) =>
                          r.id === v.id ? { ...r, voided_at: v.voided_at, voided_by: v.voided_by } : r,
                        ),
                      });
                      void load(found.cargo_no, true);
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
};

/** Where the cargo is now; nowhere once a supervisor voided every scan of it. */
const CurrentCard = ({ current }: { current: CargoLocation['current'] }) => {
  const { t } = useApp();
  return (
    <div class="card" data-testid="current">
      <p class="muted">{t('current')}</p>
      {current === null ? (
        <p class="big">{t('noCurrent')}</p>
      ) : (
        <>
          <p class="big">
            <Code code={current.location_code} />
          </p>
          <p>
            {current.off_shelf ? t('offShelf') : t('onShelf')} ·{' '}
            {t('via', { via: current.via === 'ZONGPAI' ? t('pallet') : t('box') })} · {when(current.occurred_at)}
          </p>
        </>
      )}
    </div>
  );
};
