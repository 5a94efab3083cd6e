import { useRef, useState } from 'preact/hooks';
import { createKeyKeeper, withRetries } from '../api.ts';
import { useApp } from '../context.ts';
import { ScanField } from '../scan-field.tsx';

/** One scan: the box, then the zongpai; the box is saved exactly as its ERP plan says. */
export const OneScanScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [box, setBox] = useState<string | undefined>();
  const [saving, setSaving] = useState<string | undefined>();
  const keys = useRef(createKeyKeeper()).current;

  const save = async (boxNo: string, zongpaiNo: string) => {
    const body = { box_no: boxNo, zongpai_no: zongpaiNo };
    const key = keys.keyFor(body);
    setSaving(t('saving'));
    const outcome = await withRetries(
      () => api.run(api.client.POST('/v1/box/simple', { body, params: { header: { 'Idempotency-Key': key } } })),
      { onRetry: () => setSaving(t('retrying')) },
    );
    setSaving(undefined);
    if (!outcome.ok && 'offline' in outcome) return app.notify({ tone: 'error', text: t('notSaved'), code: 'NETWORK' });
    keys.settle();
    if (!outcome.ok) {
      app.refused(outcome);
      // A wrong box starts over; a wrong zongpai is scanned again for the same box.
      if (outcome.error.domain !== 'zongpai') setBox(undefined);
      return;
    }
    app.notify({
      tone: 'ok',
      text: t('savedOnZongpai', { box: outcome.data.box_no, zongpai: outcome.data.zongpai_no ?? zongpaiNo }),
    });
    setBox(undefined);
  };

  const onScan = (code: string) => {
    if (saving !== undefined) return;
    if (box === undefined) {
      setBox(code.toUpperCase());
      app.notify({ tone: 'ok', text: code.toUpperCase() });
    } else void save(box, code);
  };

  return (
    <section class="screen" aria-label={t('oneScan')}>
      <ScanField
        label={box === undefined ? t('scanBox') : t('scanZongpai')}
        onScan={onScan}
        disabled={saving !== undefined}
      />
      {saving !== undefined && (
        <p class="saving" role="status">
          {saving}
        </p>
      )}
      {box !== undefined && (
        <div class="actions">
          <p class="big" data-testid="box-no">
            {box}
          </p>
          <button type="button" onClick={() => setBox(undefined)}>
            {t('newBox')}
          </button>
        </div>
      )}
    </section>
  );
};
