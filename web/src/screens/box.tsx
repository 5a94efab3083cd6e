import { Fragment } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { BoxInfo } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp, type AppState, type Notice } from '../context.ts';
import { GuardedButton } from '../guard.tsx';
import { instructionFor, number } from '../i18n.ts';
import { PrintButton } from '../print-button.tsx';
import { refusalAtScan } from '../refused-scan.ts';
import { classifyBoxScan } from '../register.ts';
import { ScanField } from '../scan-field.tsx';
import { useSessionState } from '../session-state.ts';
import { PendingStatus, useWrite } from '../write.tsx';
import { addScan, linesToSave, planLines, removeOne, setQuantity, shortfall, type Line } from './box-lines.ts';
import { ItemLines, QuantityInput } from './lines.tsx';
import { lineState } from './progress.ts';
import { useRepeatOfSave } from './repeat-save.ts';

/**
 * Box: scan a box and see its plan; each item scan adds one (quantities editable); then scan
 * the zongpai, which saves. The save is retried under one key until the service answers, and
 * the box is reported saved only when it did. The box being counted is kept in sessionStorage
 * (per user): a tab switch or a reload loses none of it. A scan while the plan loads is refused
 * with the error tone and asked for again, never taken for a box. An item the plan does not
 * have, or a piece beyond it, is refused at the scan and not counted; a box short of its plan is
 * saved only after the operator said so, in a step of its own (`short`) that names what is
 * missing; the zongpai scanned again after the save is told as a repeat, not taken for a box.
 * What cannot be a box (no box number by the deployment's pattern, or a location label of the
 * register) is refused at the scan, also offline, as One scan refuses it.
 */
/** Where the missing lines stand in the sentence that names them (no translation holds it). */
const LINES_AT = '\u0000';

/** "Missing: SKU-OIL-1L × 12, …", each item's code kept whole (it is matched exactly as scanned). */
const MissingLines = ({
  text,
  missing,
}: {
  text: string;
  missing: readonly { item_code: string; missing: number }[];
}) => {
  const [before, after = ''] = text.split(LINES_AT);
  return (
    <p>
      {before}
      {missing.map((m, i) => (
        <Fragment key={m.item_code}>
          {i > 0 && ', '}
          <Code code={m.item_code} /> × {number(m.missing)}
        </Fragment>
      ))}
      {after}
    </p>
  );
};

type Step =
  | { name: 'box' }
  | {
      name: 'items' | 'short' | 'zongpai';
      info: BoxInfo;
      lines: Line[];
      /** The pieces counted when the operator chose to save short (a change since asks again). */
      shortAt?: number;
    };

/** A box that is boxed already: on which zongpai, and that a supervisor can change it. */
export const alreadyBoxedNotice = (app: Pick<AppState, 't' | 'lang'>, info: BoxInfo): Notice => ({
  tone: 'error',
  text: `${info.box_no} · ${app.t('alreadyBoxed', { zongpai: info.zongpai_no ?? '' })}`,
  detail: instructionFor(app.lang, 'BOX_ALREADY_BOXED'),
  code: 'BOX_ALREADY_BOXED',
});

export const BoxScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [step, setStep] = useSessionState<Step>(`cargo.box.${app.user ?? ''}`, { name: 'box' });
  const [loading, setLoading] = useState(false);
  const { pending, write } = useWrite('scanZongpaiAgain');
  const repeat = useRepeatOfSave();
  /** The line just scanned (`seq` counts the scans, so the same line scanned again scrolls again). */
  const [current, setCurrent] = useState<{ item_code: string; seq: number } | undefined>();
  const scans = useRef(0);

  const loadBox = async (code: string) => {
    app.notify({ tone: 'info', text: '…' });
    setLoading(true);
    const outcome = await api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } }));
    setLoading(false);
    if (!outcome.ok) return app.refused(outcome);
    const info = outcome.data;
    app.register.rememberCargo([info.box_no, info.zongpai_no]);
    if (info.status === 'BOXED') return app.notify(alreadyBoxedNotice(app, info));
    app.notify({ tone: 'ok', text: `${info.box_no} · ${info.order_no ?? ''}` });
    setCurrent(undefined);
    setStep({ name: 'items', info, lines: planLines(info) });
  };

  /**
   * To the zongpai, after asking in a step of its own when the box is short of its plan. The
   * question is the news then: the banner no longer says the last count (it is taken off after
   * a tap; a zongpai scanned is answered with the question, in the warning tone).
   */
  const toZongpai = (info: BoxInfo, lines: Line[], shortAt?: number, scanned = false) => {
    const { counted, planned } = shortfall(lines);
    // Nothing counted is not asked about: the save says to count an item first.
    const short = counted < planned && linesToSave(lines).length > 0 && shortAt !== counted;
    setStep({ name: short ? 'short' : 'zongpai', info, lines, ...(shortAt === undefined ? {} : { shortAt }) });
    if (!short) return;
    if (scanned) app.notify({ tone: 'warn', text: t('shortQuestion', { n: counted, m: planned }), code: 'SHORT' });
    else app.clearNotice();
  };

  /** The short step opens with its question in sight, wherever the last scan scrolled the plan. */
  const question = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (step.name === 'short') question.current?.scrollIntoView({ block: 'nearest' });
  }, [step.name]);

  const save = async (zongpai: string, info: BoxInfo, lines: readonly Line[]) => {
    const body = { box_no: info.box_no, zongpai_no: zongpai, items: linesToSave(lines) };
    if (body.items.length === 0) {
      setStep({ name: 'items', info, lines: [...lines] });
      return app.notify({
        tone: 'error',
        text: t('nothingCounted'),
        detail: t('countOneItem'),
        code: 'NOTHING_COUNTED',
      });
    }
    const { counted, planned } = shortfall(lines);
    if (counted < planned && step.name !== 'box' && step.shortAt !== counted)
      return toZongpai(info, [...lines], undefined, true);
    const saved = await write(
      body,
      (key) => api.run(api.client.POST('/v1/box', { body, params: { header: { 'Idempotency-Key': key } } })),
      // A refused zongpai is scanned again; any other refusal goes back to the items.
      (error) => {
        const code = error.error_code;
        if (code !== 'ZONGPAI_NOT_FOUND' && code !== 'ZONGPAI_CLOSED' && code !== 'INVALID_ZONGPAI')
          setStep({ name: 'items', info, lines: [...lines] });
      },
    );
    if (saved === undefined) return;
    const onZongpai = saved.zongpai_no ?? zongpai;
    app.register.rememberCargo([saved.box_no, onZongpai]);
    const notice: Notice =
      counted < planned
        ? { tone: 'warn', text: t('savedShort', { box: saved.box_no, zongpai: onZongpai, n: counted, m: planned }) }
        : { tone: 'ok', text: t('savedOnZongpai', { box: saved.box_no, zongpai: onZongpai }) };
    repeat.saved([zongpai, onZongpai], saved.box_no, notice);
    app.notify(notice);
    setStep({ name: 'box' });
  };

  const countItem = (info: BoxInfo, lines: Line[], code: string, shortAt?: number) => {
    const counted = addScan(lines, code, app.rules.enforcePlan);
    scans.current += 1;
    setCurrent(counted.line === undefined ? undefined : { item_code: counted.line.item_code, seq: scans.current });
    if (counted.counted)
      setStep({ name: 'items', info, lines: counted.lines, ...(shortAt === undefined ? {} : { shortAt }) });
    if (counted.result === 'ok') return app.notify({ tone: 'ok', text: `${code} +1` });
    // Where the service does not enforce the plan, the piece is counted, with a warning.
    const tone = counted.counted ? 'warn' : 'error';
    const said = counted.counted ? 'Counted' : 'Refused';
    app.notify(
      counted.result === 'over'
        ? {
            tone,
            text: t(`overPlan${said}`, { item: code, planned: counted.line?.planned ?? 0 }),
            detail: t(counted.counted ? 'overPlanCountedWhat' : 'overPlanWhat'),
            code: 'QUANTITY_EXCEEDS_PLAN',
          }
        : {
            tone,
            text: t(`notInPlan${said}`, { item: code }),
            detail: t(counted.counted ? 'notInPlanCountedWhat' : 'notInPlanWhat'),
            code: 'ITEM_NOT_IN_PLAN',
          },
    );
  };

  /** A box scanned: its plan loaded, unless the device can tell it is no box (never sent then). */
  const scanBox = (code: string) => {
    if (repeat.isRepeat(code)) return;
    const scanned = classifyBoxScan(app.register, code, app.rules);
    if (scanned.kind !== 'cargo')
      return app.notify(refusalAtScan(app.lang, scanned.kind === 'location' ? 'CARGO_IS_LOCATION' : 'INVALID_BOX_NO'));
    void loadBox(scanned.code);
  };

  const onScan = (code: string) => {
    if (step.name === 'box') return scanBox(code);
    if (step.name === 'zongpai') return void save(code, step.info, step.lines);
    // An item scanned while asked to save short is counted: the box is no longer what was asked about.
    countItem(step.info, step.lines, code, step.shortAt);
  };

  /** A change to the lines by hand (−1, a typed quantity), on the step the operator is in. */
  const changeLines = (lines: Line[]) => {
    if (step.name !== 'box') setStep({ ...step, lines });
  };

  const label =
    step.name === 'box' || step.name === 'zongpai' ? t(step.name === 'box' ? 'scanBox' : 'scanZongpai') : t('scanItem');
  const short = step.name === 'box' ? undefined : shortfall(step.lines);
  return (
    <section class="screen" aria-label={t('box')}>
      <ScanField label={label} onScan={onScan} busy={pending !== undefined ? true : loading && 'loading'} />
      <PendingStatus pending={pending} />
      {step.name !== 'box' && (
        <>
          <dl class="facts">
            <dt>{t('box')}</dt>
            <dd data-testid="box-no">
              <Code code={step.info.box_no} />
            </dd>
            <dt>{t('order_')}</dt>
            <dd>{step.info.order_no ?? '–'}</dd>
            <dt>{t('customer')}</dt>
            <dd>{step.info.customer_name ?? '–'}</dd>
          </dl>
          {step.name === 'short' && short !== undefined && (
            <div class="card" data-testid="short" ref={question}>
              <p class="big">{t('shortQuestion', { n: short.counted, m: short.planned })}</p>
              <MissingLines text={t('shortMissing', { lines: LINES_AT })} missing={short.missing} />
            </div>
          )}
          <ItemLines
            lines={step.lines}
            current={current}
            planned={(line) => line.planned}
            state={(line) => lineState(line.planned, line.quantity)}
            boxed={(line) => (
              <span class="count">
                <button
                  type="button"
                  class="icon"
                  aria-label={t('oneLess', { item: line.item_code })}
                  disabled={line.quantity === 0}
                  onClick={() => changeLines(removeOne(step.lines, line.item_code))}
                >
                  −1
                </button>
                <QuantityInput
                  itemCode={line.item_code}
                  value={line.quantity}
                  max={99999}
                  onChange={(quantity) => changeLines(setQuantity(step.lines, line.item_code, quantity))}
                />
              </span>
            )}
          />
          <div class="actions">
            <PrintButton label={t('printLabel')} print={(p, a) => p.printLabel(a, { box: step.info.box_no })} />
          </div>
          {/* The step's main action, on screen above the tabs however long the plan. Drawn anew
              for each step, its buttons ignore taps for a second: the second tap of a double tap
              lands on the next step's button under the finger, and does nothing there. */}
          <div class="action-bar" data-testid="main-action" key={step.name}>
            {step.name === 'items' && (
              <GuardedButton
                class="primary"
                settleOnMount
                label={t('toZongpai')}
                onTap={() => toZongpai(step.info, step.lines, step.shortAt)}
              />
            )}
            {step.name === 'short' && short !== undefined && (
              <GuardedButton
                class="primary"
                settleOnMount
                label={t('saveShort')}
                onTap={() => toZongpai(step.info, step.lines, short.counted)}
              />
            )}
            {(step.name === 'short' || step.name === 'zongpai') && (
              <GuardedButton
                settleOnMount
                label={`‹ ${t('scanItem')}`}
                onTap={() => setStep({ ...step, name: 'items' })}
              />
            )}
            <GuardedButton settleOnMount label={t('newBox')} onTap={() => setStep({ name: 'box' })} />
          </div>
        </>
      )}
    </section>
  );
};
