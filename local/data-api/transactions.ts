import { randomBytes } from 'node:crypto';
import type { SqlTransaction } from './backend.ts';
import { isConnectionError, transactionBusy, transactionNotFound } from './errors.ts';

/** AWS rolls back a transaction that no call has used for three minutes. */
export const DEFAULT_TRANSACTION_IDLE_MS = 3 * 60 * 1000;

interface Entry {
  readonly tx: SqlTransaction;
  /** The call running on the transaction's single connection, if any. */
  tail: Promise<unknown>;
  pending: number;
  timer: NodeJS.Timeout | undefined;
  /** Set once COMMIT or ROLLBACK has been issued (or the connection died). */
  ended: boolean;
}

/**
 * The open transactions, by the opaque id handed to the client. A call on a transaction that is
 * still running another one is refused at once ("Transaction is still running a query"), as
 * AWS does rather than queue it; a transaction idle for `idleMs` is rolled back and forgotten,
 * after which its id answers TransactionNotFoundException like any unknown id.
 *
 * @example
 * ```ts
 * const transactions = new TransactionRegistry();
 * const id = transactions.add(await backend.begin());
 * await transactions.use(id, (tx) => tx.query('SELECT 1'));
 * await transactions.end(id, 'commit');
 * ```
 */
export class TransactionRegistry {
  readonly #open = new Map<string, Entry>();

  constructor(private readonly idleMs = DEFAULT_TRANSACTION_IDLE_MS) {}

  add(tx: SqlTransaction): string {
    const id = randomBytes(64).toString('base64');
    const entry: Entry = { tx, tail: Promise.resolve(), pending: 0, timer: undefined, ended: false };
    this.#open.set(id, entry);
    this.#arm(id, entry);
    return id;
  }

  /** Runs `fn` in the transaction; refused while another call runs on it. */
  async use<T>(id: string, fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const entry = this.#entry(id);
    if (entry.pending > 0) throw transactionBusy();
    clearTimeout(entry.timer);
    entry.pending += 1;
    const run = entry.tail.then(() => {
      // The connection died while this call waited its turn.
      if (entry.ended) throw transactionNotFound(id);
      return fn(entry.tx);
    });
    entry.tail = run.catch(() => undefined);
    try {
      return await run;
    } catch (error) {
      // The connection died with the transaction in it: forget it, and let the backend
      // release (and discard) its connection through a rollback that can only fail.
      if (isConnectionError(error) && this.#open.get(id) === entry) {
        this.#forget(id, entry);
        entry.ended = true;
        await entry.tx.rollback().catch(() => undefined);
      }
      throw error;
    } finally {
      entry.pending -= 1;
      if (entry.pending === 0 && this.#open.get(id) === entry) this.#arm(id, entry);
    }
  }

  /**
   * Commits or rolls back; the id is unknown from now on, whatever the outcome. Refused, like
   * any call, while a statement runs on the transaction.
   */
  async end(id: string, outcome: 'commit' | 'rollback'): Promise<void> {
    const entry = this.#entry(id);
    if (entry.pending > 0) throw transactionBusy();
    await this.#finish(id, entry, outcome);
  }

  /** Rolls back every open transaction (on shutdown), each once its running call is done. */
  async rollbackAll(): Promise<void> {
    await Promise.all([...this.#open].map(([id, entry]) => this.#finish(id, entry, 'rollback').catch(() => undefined)));
  }

  async #finish(id: string, entry: Entry, outcome: 'commit' | 'rollback'): Promise<void> {
    this.#forget(id, entry);
    // A call already running finishes first; later ones no longer find the id.
    await (entry.tail = entry.tail.then(() => {
      entry.ended = true;
      return outcome === 'commit' ? entry.tx.commit() : entry.tx.rollback();
    }));
  }

  #entry(id: string): Entry {
    const entry = this.#open.get(id);
    if (entry === undefined) throw transactionNotFound(id);
    return entry;
  }

  #forget(id: string, entry: Entry): void {
    clearTimeout(entry.timer);
    this.#open.delete(id);
  }

  #arm(id: string, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.#open.get(id) === entry) void this.end(id, 'rollback').catch(() => undefined);
    }, this.idleMs);
    entry.timer.unref(); // an idle transaction must not keep the process alive
  }
}
