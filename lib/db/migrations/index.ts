import type { Migration } from '../migration.ts';
import { locations } from './001-locations.ts';
import { boxing } from './002-boxing.ts';
import { idempotency } from './003-idempotency.ts';
import { zongpaiBoxes } from './004-zongpai-boxes.ts';
import { locationHistory } from './005-location-history.ts';
import { readContract } from './006-read-contract.ts';
import { eventOutbox } from './007-event-outbox.ts';
import { locationTrailIndex } from './008-location-trail-index.ts';
import { locationHistoryFromFirstScan } from './009-location-history-from-first-scan.ts';
import { locationHistoryRetiredMonths } from './010-location-history-retired-months.ts';
import { voidCurrentAfterConcurrentWrites } from './011-void-current-after-concurrent-writes.ts';
import { zongpaiVersion } from './012-zongpai-version.ts';
import { locationHistoryMonthsAheadBound } from './013-location-history-months-ahead-bound.ts';
import { outboxPrimaryKeyOnly } from './014-outbox-primary-key-only.ts';
import { codeCollation } from './015-code-collation.ts';
import { eventSequenceForwardOnly } from './016-event-sequence-forward-only.ts';
import { historyCodesByteOrder } from './017-history-codes-byte-order.ts';
import { eventRelayLease } from './018-event-relay-lease.ts';
import { idempotencyReplyShape } from './019-idempotency-reply-shape.ts';
import { ssccSerial } from './020-sscc-serial.ts';
import { locationRegister } from './021-location-register.ts';
import { trailByWeek } from './022-trail-by-week.ts';
import { lateScansByCargo } from './023-late-scans-by-cargo.ts';
import { cargoSpan } from './024-cargo-span.ts';
import { scanChecksInStatement } from './025-scan-checks-in-statement.ts';

/**
 * Every migration, in order. Append only: a released migration keeps its number and what it does to
 * the tables. The functions that changed after their release are not in any migration but in
 * lib/db/sql-functions/, each in its current form, which a new database gets after the migrations.
 */
export const migrations: readonly Migration[] = [
  locations,
  boxing,
  idempotency,
  zongpaiBoxes,
  locationHistory,
  readContract,
  eventOutbox,
  locationTrailIndex,
  locationHistoryFromFirstScan,
  locationHistoryRetiredMonths,
  voidCurrentAfterConcurrentWrites,
  zongpaiVersion,
  locationHistoryMonthsAheadBound,
  outboxPrimaryKeyOnly,
  codeCollation,
  eventSequenceForwardOnly,
  historyCodesByteOrder,
  eventRelayLease,
  idempotencyReplyShape,
  ssccSerial,
  locationRegister,
  trailByWeek,
  lateScansByCargo,
  cargoSpan,
  scanChecksInStatement,
];
