import { useState } from 'preact/hooks';
import type { OrderProgress } from '../api-types.ts';
import { useApp } from '../context.ts';
import { ScanField } from '../scan-field.tsx';
import { lineState, packedPercent } from './progress.ts';

/**
 * Order: how far an ERP order is packed: its boxes with their status, zongpai and location, and
 * planned against boxed per item. The order number is sent as typed (the ERP's own spelling).
 */
export const OrderScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [order, setOrder] = useState<OrderProgress | undefined>();

  const onScan = async (code: string) => {
    const outcome = await api.run(api.client.GET('/v1/orders/{order_no}', { params: { path: { order_no: code } } }));
    if (!outcome.ok) {
      setOrder(undefined);
      return app.refused(outcome);
    }
    setOrder(outcome.data);
    app.notify({
      tone: outcome.data.complete ? 'ok' : 'warn',
      text: `${outcome.data.order_no} · ${t('boxesBoxed', { boxed: outcome.data.boxed_count, total: outcome.data.box_count })}`,
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
                : `${t('boxesBoxed', { boxed: order.boxed_count, total: order.box_count })} · ${t('packed', { percent: packedPercent(order) })}`}
            </dd>
          </dl>
          <progress class="progress" max={100} value={packedPercent(order)} />
          <table class="lines" data-testid="order-boxes">
            <thead>
              <tr>
                <th>{t('box')}</th>
                <th>{t('pallet')}</th>
                <th>{t('location')}</th>
              </tr>
            </thead>
            <tbody>
              {order.boxes.map((b) => (
                <tr key={b.box_no} data-state={b.status === 'BOXED' ? (b.complete ? 'complete' : 'short') : 'open'}>
                  <td>
                    {b.box_no}
                    <small>{b.status === 'BOXED' ? (b.complete ? t('complete') : t('short')) : t('open')}</small>
                  </td>
                  <td>{b.zongpai_no ?? '–'}</td>
                  <td>
                    {b.location === null
                      ? t('notLocated')
                      : `${b.location.location_code}${b.location.off_shelf ? ` (${t('offShelf')})` : ''}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>{t('itemTotals')}</h2>
          <table class="lines" data-testid="order-totals">
            <thead>
              <tr>
                <th>{t('item')}</th>
                <th>{t('planned')}</th>
                <th>{t('boxed')}</th>
              </tr>
            </thead>
            <tbody>
              {order.totals.map((line) => (
                <tr key={line.item_code} data-state={lineState(line.planned_quantity, line.boxed_quantity)}>
                  <td>
                    {line.item_code}
                    <small>{line.item_name ?? ''}</small>
                  </td>
                  <td>{line.planned_quantity}</td>
                  <td>{line.boxed_quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
};
