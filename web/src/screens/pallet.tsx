import { useRef, useState } from 'preact/hooks';
import { createKeyKeeper, withRetries } from '../api.ts';
import type { Zongpai } from '../api-types.ts';
import { useApp } from '../context.ts';
import { ScanField } from '../scan-field.tsx';

/**
 * Pallet: scan a zongpai to see its boxes and totals, register it when it is new; supervisors
 * close it.
 */
export const PalletScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [zongpai, setZongpai] = useState<Zongpai | undefined>();
  const [unknown, setUnknown] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const keys = useRef(createKeyKeeper()).current;

  const onScan = async (code: string) => {
    const outcome = await api.run(api.client.GET('/v1/zongpai/{zongpai_no}', { params: { path: { zongpai_no: code } } }));
    setUnknown(undefined);
    setZongpai(undefined);
    if (outcome.ok) {
      setZongpai(outcome.data);
      return app.notify({ tone: 'ok', text: `${outcome.data.zongpai_no} · ${outcome.data.box_count} ${t('boxes')}` });
    }
    if (!('offline' in outcome) && outcome.error.error_code === 'ZONGPAI_NOT_FOUND') setUnknown(code.toUpperCase());
    app.refused(outcome);
  };

  const write = async (run: (key: string) => ReturnType<typeof api.run<Zongpai>>, body: unknown, done: (z: Zongpai) => string) => {
    const key = keys.keyFor(body);
    setBusy(true);
    const outcome = await withRetries(() => run(key));
    setBusy(false);
    if (!outcome.ok && 'offline' in outcome) return app.notify({ tone: 'error', text: t('notSaved'), code: 'NETWORK' });
    keys.settle();
    if (!outcome.ok) return app.refused(outcome);
    setUnknown(undefined);
    setZongpai(outcome.data);
    app.notify({ tone: 'ok', text: done(outcome.data) });
  };

  const register = (zongpaiNo: string) =>
    write((key) => api.run(api.client.POST('/v1/zongpai', { body: { zongpai_no: zongpaiNo }, params: { header: { 'Idempotency-Key': key } } })), { register: zongpaiNo }, (z) => t('registered', { zongpai: z.zongpai_no }));
  const close = (zongpaiNo: string) =>
    write((key) => api.run(api.client.POST('/v1/zongpai/{zongpai_no}/close', { params: { path: { zongpai_no: zongpaiNo }, header: { 'Idempotency-Key': key } } })), { close: zongpaiNo }, (z) => `${z.zongpai_no}: ${t('closed')}`);

  return (
    <section class="screen" aria-label={t('pallet')}>
      <ScanField label={t('scanZongpai')} onScan={(code) => void onScan(code)} disabled={busy} />
      {unknown !== undefined && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => void register(unknown)}>{t('register')} {unknown}</button>
        </div>
      )}
      {zongpai !== undefined && (
        <>
          <dl class="facts">
            <dt>{t('pallet')}</dt><dd data-testid="zongpai-no">{zongpai.zongpai_no}</dd>
            <dt>{t('status')}</dt><dd data-testid="zongpai-status">{zongpai.status === 'OPEN' ? t('open') : t('closed')}</dd>
            <dt>{t('boxes')}</dt><dd>{zongpai.box_count}</dd>
            <dt>{t('total')}</dt><dd>{zongpai.total_quantity}</dd>
          </dl>
          <table class="lines">
            <thead><tr><th>{t('box')}</th><th>{t('total')}</th></tr></thead>
            <tbody>{zongpai.boxes.map((b) => <tr key={b.box_no}><td>{b.box_no}</td><td>{b.total_quantity}</td></tr>)}</tbody>
          </table>
          {app.auth.isSupervisor() && zongpai.status === 'OPEN' && (
            <div class="actions"><button type="button" class="danger" disabled={busy} onClick={() => void close(zongpai.zongpai_no)}>{t('close')}</button></div>
          )}
        </>
      )}
    </section>
  );
};
