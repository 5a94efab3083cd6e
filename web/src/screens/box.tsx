import { useState } from 'preact/hooks';
import type { BoxInfo } from '../api-types.ts';
import { useApp, type AppState, type Notice } from '../context.ts';
import { instructionFor } from '../i18n.ts';
import { PrintButton } from '../print-button.tsx';
import { ScanField } from '../scan-field.tsx';
import { useSessionState } from '../session-state.ts';
import { PendingStatus, useWrite } from '../write.tsx';
import { addScan, linesToSave, planLines, setQuantity, type Line } from './box-lines.ts';
import { ItemLines, QuantityInput } from './lines.tsx';
import { lineState } from './progress.ts';

/**
 * Box: scan a box and see its plan; each item scan adds one (quantities editable); then scan
 * the zongpai, which saves. The save is retried under one key until the service answers, and
 * the box is reported saved only when it did. The box being counted is kept in sessionStorage
 * (per user): a tab switch or a reload loses none of it. A scan while the plan loads is refused
 * with the error tone and asked for again, never taken for a box.
 */
type Step = { name: 'box' } | { name: 'items' | 'zongpai'; info: BoxInfo; lines: Line[] };

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

  const loadBox = async (code: string) => {
    app.notify({ tone: 'info', text: '…' });
    setLoading(true);
    const outcome = await api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } }));
    setLoading(false);
    if (!outcome.ok) return app.refused(outcome);
    const info = outcome.data;
    if (info.status === 'BOXED') return app.notify(alreadyBoxedNotice(app, info));
    app.notify({ tone: 'ok', text: `${info.box_no} · ${info.order_no ?? ''}` });
    setStep({ name: 'items', info, lines: planLines(info) });
  };

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
    app.notify({
      tone: 'ok',
      text: t('savedOnZongpai', { box: saved.box_no, zongpai: saved.zongpai_no ?? zongpai }),
    });
    setStep({ name: 'box' });
  };

  const onScan = (code: string) => {
    if (step.name === 'box') return void loadBox(code);
    if (step.name === 'zongpai') return void save(code, step.info, step.lines);
    const { lines, result } = addScan(step.lines, code);
    setStep({ ...step, lines });
    app.notify({
      tone: result === 'ok' ? 'ok' : 'warn',
      text: `${code.toUpperCase()} +1`,
      ...(result === 'ok' ? {} : { detail: t(result === 'over' ? 'over' : 'notInPlan') }),
    });
  };

  const label = step.name === 'box' ? t('scanBox') : step.name === 'items' ? t('scanItem') : t('scanZongpai');
  return (
    <section class="screen" aria-label={t('box')}>
      <ScanField label={label} onScan={onScan} busy={pending !== undefined ? true : loading && 'loading'} />
      <PendingStatus pending={pending} />
      {step.name !== 'box' && (
        <>
          <dl class="facts">
            <dt>{t('box')}</dt>
            <dd data-testid="box-no">{step.info.box_no}</dd>
            <dt>{t('order_')}</dt>
            <dd>{step.info.order_no ?? '–'}</dd>
            <dt>{t('customer')}</dt>
            <dd>{step.info.customer_name ?? '–'}</dd>
          </dl>
          <ItemLines
            lines={step.lines}
            planned={(line) => line.planned}
            state={(line) => lineState(line.planned, line.quantity)}
            boxed={(line) => (
              <QuantityInput
                itemCode={line.item_code}
                value={line.quantity}
                max={99999}
                onChange={(quantity) => setStep({ ...step, lines: setQuantity(step.lines, line.item_code, quantity) })}
              />
            )}
          />
          <div class="actions">
            {step.name === 'items' && (
              <button type="button" class="primary" onClick={() => setStep({ ...step, name: 'zongpai' })}>
                {t('toZongpai')}
              </button>
            )}
            {step.name === 'zongpai' && (
              <button type="button" onClick={() => setStep({ ...step, name: 'items' })}>
                ‹ {t('scanItem')}
              </button>
            )}
            <button type="button" onClick={() => setStep({ name: 'box' })}>
              {t('newBox')}
            </button>
          </div>
          <div class="actions">
            <PrintButton label={t('printLabel')} print={(p, a) => p.printLabel(a, { box: step.info.box_no })} />
          </div>
        </>
      )}
    </section>
  );
};
