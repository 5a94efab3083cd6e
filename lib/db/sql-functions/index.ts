import { keepLocationHistory } from './keep-location-history.ts';
import { maintainLocationHistory } from './maintain-location-history.ts';
import type { DatabaseFunction } from './function.ts';
import { voidCurrent } from './void-current.ts';

export type { DatabaseFunction } from './function.ts';

/** Every function defined in its current form, in the order they are applied. */
export const databaseFunctions: readonly DatabaseFunction[] = [
  maintainLocationHistory,
  keepLocationHistory,
  voidCurrent,
];
