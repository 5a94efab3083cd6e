import type { CargoLocation, VoidedScan } from '../api-types.ts';
import { useApp } from '../context.ts';
import { GuardedButton } from '../guard.tsx';
import { useWrite } from '../write.tsx';

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
  const { pending, write } = useWrite();

  const voidIt = async () => {
    const body = { version: record.version };
    const voided = await write({ void: record.id, ...body }, (key) =>
      api.run(
        api.client.DELETE('/v1/cargo/location/{cargo_no}/records/{id}', {
          params: { path: { cargo_no: record.cargo_no, id: record.id }, header: { 'Idempotency-Key': key } },
          body,
        }),
      ),
    );
    if (voided === undefined) return;
    app.notify({ tone: 'ok', text: t('scanVoided', { cargo: voided.cargo_no, location: voided.location_code }) });
    onVoided(voided);
  };

  return (
    <GuardedButton
      class="danger small"
      disabled={pending !== undefined}
      label={t('voidScan')}
      confirmLabel={t('confirmVoid')}
      onTap={() => void voidIt()}
    />
  );
};
