import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { LocationContent } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { when } from '../i18n.ts';
import { useLatest } from '../latest.ts';

/**
 * "What is here": the cargo whose current location is this one, a page at a time, a zongpai with
 * the boxes on it. Asked for when the operator taps, never on every scan. Rendered with
 * `key={location}`, so another location starts empty.
 */
export const LocationContentPanel = ({ location }: { location: string }) => {
  const app = useApp();
  const { t, api } = app;
  const [content, setContent] = useState<LocationContent | undefined>();
  const [busy, setBusy] = useState(false);
  // An answer that arrives once the operator moved on (another location, another screen) is dropped.
  const latest = useLatest();

  const load = async (cursor?: string) => {
    setBusy(true);
    const outcome = await latest(
      api.run(
        api.client.GET('/v1/cargo/locations/{location_code}/cargo', {
          params: { path: { location_code: location }, query: cursor === undefined ? {} : { cursor } },
        }),
      ),
    );
    if (outcome === undefined) return;
    setBusy(false);
    if (!outcome.ok) return app.refused(outcome);
    const next =
      cursor === undefined || content === undefined
        ? outcome.data
        : { ...outcome.data, cargo: [...content.cargo, ...outcome.data.cargo] };
    setContent(next);
    app.notify({ tone: 'ok', text: t('hereCount', { n: next.cargo.length, location: next.location_code }) });
  };

  const shown = content;
  return (
    <div class="card here" data-testid="location-content">
      <button type="button" disabled={busy} onClick={() => void load()}>
        {t('whatIsHere')}: <Code code={location} />
      </button>
      {shown !== undefined && (
        <>
          {shown.cargo.length === 0 && <p class="muted">{t('nothingHere')}</p>}
          <ul class="history">
            {shown.cargo.map((c) => (
              <li key={c.cargo_no} data-testid="here">
                <b>
                  <Code code={c.cargo_no} />
                </b>{' '}
                {c.off_shelf ? `(${t('offShelf')})` : ''} <span class="muted">{when(c.since)}</span>
                {c.boxes.length > 0 && (
                  <small class="muted">
                    {' · '}
                    {c.boxes.map((box, i) => (
                      <Fragment key={box}>
                        {i > 0 && ', '}
                        <Code code={box} />
                      </Fragment>
                    ))}
                  </small>
                )}
              </li>
            ))}
          </ul>
          {shown.next_cursor !== null && (
            <button type="button" disabled={busy} onClick={() => void load(shown.next_cursor ?? undefined)}>
              {t('more')}
            </button>
          )}
        </>
      )}
    </div>
  );
};
