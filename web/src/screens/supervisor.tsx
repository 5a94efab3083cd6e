import type { Outcome } from '../api.ts';
import type { BoxHistory, BoxInfo, BoxSaved } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { GuardedButton } from '../guard.tsx';
import { when, type Key } from '../i18n.ts';
import { useLatest } from '../latest.ts';
import { ScanField } from '../scan-field.tsx';
import { useSessionState } from '../session-state.ts';
import { useWrite } from '../write.tsx';
import { changeWords, editsOf } from './box-changes.ts';
import { ItemLines, QuantityInput } from './lines.tsx';

interface Loaded {
  readonly info: BoxInfo;
  readonly history: BoxHistory;
  readonly zongpai: string;
  readonly quantities: Readonly<Record<string, number>>;
}

/** The words for a box's status and for what was done to it, in the operator's language. */
const STATUS = { BOXED: 'statusBoxed', NOT_BOXED: 'statusNotBoxed' } as const satisfies Record<BoxInfo['status'], Key>;
const ACTION = { SAVE: 'actionSave', EDIT: 'actionEdit', UNDO: 'actionUndo' } as const satisfies Record<
  BoxHistory['events'][number]['action'],
  Key
>;

/** A change to a box, sent to the box's own path under its Idempotency-Key. */
const boxChange = <B,>(loaded: Loaded, key: string, body: B) => ({
  params: { path: { box_no: loaded.info.box_no }, header: { 'Idempotency-Key': key } },
  body,
});

/**
 * Supervisor: scan a boxed box to see what it holds and its history, then move it to another
 * zongpai, correct its items, or undo it. Every change names the version it was made on, so a
 * change made meanwhile by someone else is refused (VERSION_CONFLICT), never overwritten.
 * The box shown is kept in sessionStorage (per user), so a tab switch comes back to it; an
 * edit is confirmed, and the history shows each edit, with what changed (read from the history).
 */
export const SupervisorScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [box, setBox] = useSessionState<Loaded | undefined>(`cargo.supervisor.${app.user ?? ''}`, undefined);
  /** The next scan is the zongpai to move the box to (the operator asked for it), not a box. */
  const [scanTarget, setScanTarget] = useSessionState(`cargo.supervisor.target.${app.user ?? ''}`, false);
  const moved = (from: string, to: string) => t('movedFromTo', { from, to });
  const { pending, write } = useWrite();
  const busy = pending !== undefined;
  const latest = useLatest();

  /** Shows the box scanned last; undefined when refused, or superseded by a later scan (dropped). */
  const load = async (code: string): Promise<Loaded | undefined> => {
    const answers = await latest(
      Promise.all([
        api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } })),
        api.run(api.client.GET('/v1/box/{box_no}/history', { params: { path: { box_no: code } } })),
      ]),
    );
    if (answers === undefined) return undefined;
    const [info, history] = answers;
    setScanTarget(false);
    if (!info.ok) return (setBox(undefined), app.refused(info), undefined);
    if (!history.ok) return (setBox(undefined), app.refused(history), undefined);
    const quantities: Record<string, number> = {};
    for (const item of info.data.items) quantities[item.item_code] = item.boxed_quantity;
    app.register.rememberCargo([info.data.box_no, info.data.zongpai_no]);
    const loaded = { info: info.data, history: history.data, zongpai: info.data.zongpai_no ?? '', quantities };
    setBox(loaded);
    return loaded;
  };

  const onScan = async (code: string) => {
    if (scanTarget && box !== undefined) {
      setScanTarget(false);
      setBox({ ...box, zongpai: code.toUpperCase() });
      return app.notify({ tone: 'ok', text: `${t('move')}: ${code.toUpperCase()}`, detail: t('editToMove') });
    }
    if ((await load(code)) !== undefined) app.notify({ tone: 'ok', text: code.toUpperCase() });
  };

  /** A change to the box shown: the box is shown again as it now is, with what was done. */
  const change = async (
    name: unknown,
    send: (key: string) => Promise<Outcome<BoxSaved | { box_no: string }>>,
    done: (now: Loaded | undefined) => string,
  ) => {
    const changed = await write(name, send);
    if (changed === undefined) return;
    const now = await load(changed.box_no);
    app.notify({ tone: 'ok', text: done(now) });
  };

  /** An edit in words, as the history now has it: its last edit against the event before it. */
  const editDone = (boxNo: string, now: Loaded | undefined) => {
    const last = now?.history.events.findLast((e) => e.action === 'EDIT');
    const change = last === undefined ? undefined : now && editsOf(now.history).get(last.version);
    const words = change === undefined ? [] : changeWords(change, moved);
    return words.length === 0
      ? t('edited', { box: boxNo })
      : t('editedWhat', { box: boxNo, changes: words.join('; ') });
  };

  const edit = (loaded: Loaded) => {
    const items = Object.entries(loaded.quantities)
      .filter(([, q]) => q !== 0)
      .map(([item_code, quantity]) => ({ item_code, quantity }));
    // A box holds at least one item: emptying it is undoing it, not an edit the service would refuse.
    if (items.length === 0)
      return app.notify({ tone: 'error', text: t('emptyEdit'), detail: t('emptyEditUndo'), code: 'EMPTY_EDIT' });
    const body = { version: loaded.info.version, zongpai_no: loaded.zongpai, items };
    return change(
      { edit: loaded.info.box_no, ...body },
      (key) => api.run(api.client.PATCH('/v1/box/{box_no}', boxChange(loaded, key, body))),
      (now) => editDone(loaded.info.box_no, now),
    );
  };

  const undo = (loaded: Loaded) => {
    const body = { version: loaded.info.version };
    return change(
      { undo: loaded.info.box_no, ...body },
      (key) => api.run(api.client.DELETE('/v1/box/{box_no}', boxChange(loaded, key, body))),
      () => t('undone', { box: loaded.info.box_no }),
    );
  };

  const edits = box === undefined ? new Map() : editsOf(box.history);
  if (!app.auth.isSupervisor())
    return (
      <section class="screen">
        <p class="card">{t('supervisorOnly')}</p>
      </section>
    );
  return (
    <section class="screen" aria-label={t('supervisor')}>
      <ScanField
        label={scanTarget ? t('scanNewZongpai') : t('scanBox')}
        onScan={(code) => void onScan(code)}
        busy={busy}
      />
      {box !== undefined && (
        <>
          <dl class="facts">
            <dt>{t('box')}</dt>
            <dd data-testid="box-no">
              <Code code={box.info.box_no} />
            </dd>
            <dt>{t('status')}</dt>
            <dd data-testid="box-status" data-status={box.info.status}>
              {t(STATUS[box.info.status])}
            </dd>
            <dt>{t('version')}</dt>
            <dd>{box.info.version}</dd>
          </dl>
          {box.info.status === 'BOXED' && (
            <>
              <label class="field">
                {t('move')}
                <input
                  id="scan-zongpai"
                  name="zongpai"
                  value={box.zongpai}
                  autocomplete="off"
                  onInput={(e) => setBox({ ...box, zongpai: e.currentTarget.value })}
                />
              </label>
              <button type="button" aria-pressed={scanTarget} onClick={() => setScanTarget(!scanTarget)}>
                {t('scanNewZongpai')}
              </button>
              <ItemLines
                lines={box.info.items}
                planned={(item) => item.planned_quantity}
                boxed={(item) => (
                  <QuantityInput
                    itemCode={item.item_code}
                    value={box.quantities[item.item_code] ?? 0}
                    onChange={(quantity) =>
                      setBox({ ...box, quantities: { ...box.quantities, [item.item_code]: quantity } })
                    }
                  />
                )}
              />
            </>
          )}
          <h2>{t('history')}</h2>
          <ol class="history" data-testid="history">
            {box.history.events.map((e) => {
              const edit = e.action === 'EDIT' ? edits.get(e.version) : undefined;
              return (
                <li key={e.version + e.action}>
                  <b data-action={e.action}>{t(ACTION[e.action])}</b> v{e.version}{' '}
                  {e.zongpai_no !== null && <Code code={e.zongpai_no} />}{' '}
                  <span class="muted">
                    {when(e.at)} · {t('by', { who: e.actor })}
                  </span>
                  {edit !== undefined &&
                    changeWords(edit, moved).map((words) => (
                      <small key={words} class="change">
                        {words}
                      </small>
                    ))}
                </li>
              );
            })}
          </ol>
          {/* Edit and undo on screen above the tabs, however long the box and its history. */}
          <div class="action-bar" data-testid="main-action">
            {box.info.status === 'BOXED' && (
              <>
                <button type="button" class="primary" disabled={busy} onClick={() => void edit(box)}>
                  {t('edit')}
                </button>
                <GuardedButton
                  key={box.info.version}
                  class="danger"
                  disabled={busy}
                  label={t('undo')}
                  confirmLabel={t('confirmUndo')}
                  onTap={() => void undo(box)}
                />
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
};
