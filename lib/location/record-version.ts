/** A location record's version: 1 as scanned, 2 once voided (the only change a record has). */
export const LIVE = 1;
export const VOIDED = 2;

/** The version of a record, from whether it was voided. */
export const recordVersion = (voidedAt: string | null): number => (voidedAt === null ? LIVE : VOIDED);
