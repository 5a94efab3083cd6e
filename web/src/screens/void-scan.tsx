import { useRef, useState } from 'preact/hooks';
import { createKeyKeeper, withRetries } from '../api.ts';
import type { CargoLocation, VoidedScan } from '../api-types.ts';
import { useApp } from '../context.ts';

type LocationRecord = CargoLocation['history'][number];

/**
 * A supervisor voids a wrong location scan: tap, then tap again to confirm. The record stays in
 * the history marked voided and no longer counts for the current location; it is named with
 * its version (1 until voided), so voiding twice changes nothing.
 */
export const VoidScanButton = ({
  record,
  onVoided,
}: {
  record: LocationRecord;
  onVoided: (voided: VoidedScan) => void;
}) => {
  const app = useApp();
  const { t, api } = app;
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const keys = useRef(createKeyKeeper()).current;

  const voidIt = async () => {
    const body = { version: 1 };
    const key = keys.keyFor({ void: record.id, ...body });
    setBusy(true);
    const outcome = await withRetries(() =>
      api.run(
        api.client.DELETE('/v1/cargo/location/{cargo_no}/records/{id}', {
          params: { path: { cargo_no: record.cargo_no, id: record.id }, header: { 'Idempotency-Key': key } },
          body,
        }),
      ),
    );
    setBusy(false);
    setConfirm(false);
    if (!outcome.ok && 'offline' in outcome) return app.notify({ tone: 'error', text: t('notSaved'), code: 'NETWORK' });
    keys.settle();
    if (!outcome.ok) return app.refused(outcome);
    app.notify({
      tone: 'ok',
      text: t('scanVoided', { cargo: outcome.data.cargo_no, location: outcome.data.location_code }),
    });
    onVoided(outcome.data);
  };

  return (
    <button
      type="button"
      class="danger small"
      disabled={busy}
      onClick={() => (confirm ? void voidIt() : setConfirm(true))}
    >
      {confirm ? t('confirmVoid') : t('voidScan')}
    </button>
  );
};
