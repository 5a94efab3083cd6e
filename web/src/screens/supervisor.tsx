import { useState } from 'preact/hooks';
import type { Outcome } from '../api.ts';
import type { BoxHistory, BoxInfo, BoxSaved } from '../api-types.ts';
import { useApp } from '../context.ts';
import { when, type Key } from '../i18n.ts';
import { useLatest } from '../latest.ts';
import { ScanField } from '../scan-field.tsx';
import { useWrite } from '../write.tsx';
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
 */
export const SupervisorScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [box, setBox] = useState<Loaded | undefined>();
  const [confirmUndo, setConfirmUndo] = useState(false);
  /** The next scan is the zongpai to move the box to (the operator asked for it), not a box. */
  const [scanTarget, setScanTarget] = useState(false);
  const { pending, write } = useWrite();
  const busy = pending !== undefined;
  const latest = useLatest();

  /** Shows the box scanned last; false when refused, or superseded by a later scan (dropped). */
  const load = async (code: string): Promise<boolean> => {
    const answers = await latest(
      Promise.all([
        api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } })),
        api.run(api.client.GET('/v1/box/{box_no}/history', { params: { path: { box_no: code } } })),
      ]),
    );
    if (answers === undefined) return false;
    const [info, history] = answers;
    setConfirmUndo(false);
    setScanTarget(false);
    if (!info.ok) return (setBox(undefined), app.refused(info), false);
    if (!history.ok) return (setBox(undefined), app.refused(history), false);
    const quantities: Record<string, number> = {};
    for (const item of info.data.items) quantities[item.item_code] = item.boxed_quantity;
    setBox({ info: info.data, history: history.data, zongpai: info.data.zongpai_no ?? '', quantities });
    return true;
  };

  const onScan = async (code: string) => {
    if (scanTarget && box !== undefined) {
      setScanTarget(false);
      setBox({ ...box, zongpai: code.toUpperCase() });
      return app.notify({ tone: 'ok', text: `${t('move')}: ${code.toUpperCase()}`, detail: t('editToMove') });
    }
    if (await load(code)) app.notify({ tone: 'ok', text: code.toUpperCase() });
  };

  /** A change to the box shown: the box is shown again as it now is, with what was done. */
  const change = async (
    name: unknown,
    send: (key: string) => Promise<Outcome<BoxSaved | { box_no: string }>>,
    done: string,
  ) => {
    const changed = await write(name, send);
    if (changed === undefined) return;
    await load(changed.box_no);
    app.notify({ tone: 'ok', text: done });
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
      t('edited', { box: loaded.info.box_no }),
    );
  };

  const undo = (loaded: Loaded) => {
    const body = { version: loaded.info.version };
    return change(
      { undo: loaded.info.box_no, ...body },
      (key) => api.run(api.client.DELETE('/v1/box/{box_no}', boxChange(loaded, key, body))),
      t('undone', { box: loaded.info.box_no }),
    );
  };

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
            <dd data-testid="box-no">{box.info.box_no}</dd>
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
              <div class="actions">
                <button type="button" class="primary" disabled={busy} onClick={() => void edit(box)}>
                  {t('edit')}
                </button>
                <button
                  type="button"
                  class="danger"
                  disabled={busy}
                  onClick={() => (confirmUndo ? void undo(box) : setConfirmUndo(true))}
                >
                  {confirmUndo ? t('confirmUndo') : t('undo')}
                </button>
              </div>
            </>
          )}
          <h2>{t('history')}</h2>
          <ol class="history" data-testid="history">
            {box.history.events.map((e) => (
              <li key={e.version + e.action}>
                <b data-action={e.action}>{t(ACTION[e.action])}</b> v{e.version} {e.zongpai_no ?? ''}{' '}
                <span class="muted">
                  {when(e.at)} · {t('by', { who: e.actor })}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
};
