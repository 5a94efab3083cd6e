import { useState } from 'preact/hooks';
import type { OrderProgress } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { number, percent } from '../i18n.ts';
import { useLatest } from '../latest.ts';
import { ScanField } from '../scan-field.tsx';
import { BoxCell, ItemLines, LinesTable, MoreBoxes } from './lines.tsx';
import { lineState, packedPercent } from './progress.ts';

/**
 * Order: how far an ERP order is packed: its boxes with their status, zongpai and location, and
 * planned against boxed per item. The order number is sent as typed (the ERP's own spelling).
 */
export const OrderScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [order, setOrder] = useState<OrderProgress | undefined>();
  const latest = useLatest();

  /** An order or its next page of boxes: undefined when a later scan or page superseded it. */
  const load = (orderNo: string, cursor?: string) =>
    latest(
      api.run(api.client.GET('/v1/orders/{order_no}', { params: { path: { order_no: orderNo }, query: { cursor } } })),
    );
  const onScan = async (code: string) => {
    const outcome = await load(code);
    if (outcome === undefined) return;
    if (!outcome.ok) {
      setOrder(undefined);
      return app.refused(outcome);
    }
    setOrder(outcome.data);
    app.register.rememberCargo(outcome.data.boxes.flatMap((b) => [b.box_no, b.zongpai_no]));
    app.notify({
      tone: outcome.data.complete ? 'ok' : 'warn',
      text: `${outcome.data.order_no} · ${t('boxesBoxed', { boxed: outcome.data.boxed_count, n: outcome.data.box_count })}`,
    });
  };

  return (
    <section class="screen" aria-label={t('order')}>
      <ScanField label={t('scanOrder')} onScan={(code) => void onScan(code)} />
      {order !== undefined && (
        <>
          <dl class="facts">
            <dt>{t('order')}</dt>
            <dd data-testid="order-no">{order.order_no}</dd>
            <dt>{t('customer')}</dt>
            <dd>{order.customer_name ?? ''}</dd>
            <dt>{t('status')}</dt>
            <dd data-testid="order-progress">
              {order.complete
                ? t('orderDone')
                : `${t('boxesBoxed', { boxed: order.boxed_count, n: order.box_count })} · ${t('packed', { percent: percent(packedPercent(order) / 100) })}`}
            </dd>
          </dl>
          <progress class="progress" max={100} value={packedPercent(order)} />
          <LinesTable head={[t('box'), t('pallet'), t('location')]} testId="order-boxes" wide>
            {order.boxes.map((b) => (
              <tr key={b.box_no} data-state={b.status === 'BOXED' ? (b.complete ? 'complete' : 'short') : 'open'}>
                <BoxCell
                  box={b.box_no}
                  note={b.status === 'BOXED' ? (b.complete ? t('complete') : t('short')) : t('statusNotBoxed')}
                />
                <td>{b.zongpai_no === null ? '–' : <Code code={b.zongpai_no} />}</td>
                <td>
                  {b.location === null ? (
                    t('notLocated')
                  ) : (
                    <>
                      <Code code={b.location.location_code} />
                      {b.location.off_shelf && <small>{t('offShelf')}</small>}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </LinesTable>
          <MoreBoxes shown={order} load={(cursor) => load(order.order_no, cursor)} show={setOrder} />
          <h2>{t('itemTotals')}</h2>
          <ItemLines
            lines={order.totals}
            testId="order-totals"
            planned={(line) => line.planned_quantity}
            state={(line) => lineState(line.planned_quantity, line.boxed_quantity)}
            boxed={(line) => number(line.boxed_quantity)}
          />
        </>
      )}
    </section>
  );
};
