import { useState } from 'preact/hooks';
import type { CargoLocation } from '../api-types.ts';
import { useApp } from '../context.ts';
import { ScanField } from '../scan-field.tsx';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** Find: where a box or zongpai is now (itself or through its zongpai) and where it was. */
export const FindScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [found, setFound] = useState<CargoLocation | undefined>();

  const onScan = async (code: string) => {
    const outcome = await api.run(api.client.GET('/v1/cargo/location/{cargo_no}', { params: { path: { cargo_no: code } } }));
    if (!outcome.ok) {
      setFound(undefined);
      return app.refused(outcome);
    }
    setFound(outcome.data);
    app.notify({ tone: 'ok', text: `${outcome.data.cargo_no} → ${outcome.data.current.location_code}` });
  };

  return (
    <section class="screen" aria-label={t('find')}>
      <ScanField label={t('scanAny')} onScan={(code) => void onScan(code)} />
      {found !== undefined && (
        <>
          <div class="card" data-testid="current">
            <p class="muted">{t('current')}</p>
            <p class="big">{found.current.location_code}</p>
            <p>{found.current.off_shelf ? t('offShelf') : t('onShelf')} · {t('via', { via: found.current.via === 'ZONGPAI' ? t('pallet') : t('box') })} · {when(found.current.occurred_at)}</p>
          </div>
          <h2>{t('history')}</h2>
          <ul class="history">
            {found.history.map((h) => (
              <li key={h.id}><b>{h.location_code}</b> {h.off_shelf ? `(${t('offShelf')})` : ''} <span class="muted">{when(h.occurred_at)} · {t('by', { who: h.recorded_by })}</span></li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
};
