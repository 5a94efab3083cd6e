import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from '../api.ts';
import type { PackingList, Zongpai, ZongpaiPage } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { GuardedButton } from '../guard.tsx';
import { number, when } from '../i18n.ts';
import { useLatest } from '../latest.ts';
import { PrintButton } from '../print-button.tsx';
import { ScanField } from '../scan-field.tsx';
import { useWrite } from '../write.tsx';
import { BoxCell, CodeCell, LinesTable, MoreBoxes } from './lines.tsx';

/**
 * Pallet: the zongpais, newest first (open ones unless asked for all); scan or tap one for its
 * packing list (every box with its order and items, totals per item), register it when it is
 * new, or register the next SSCC in one tap where the service has a GS1 company prefix; print
 * its label and its packing list; supervisors close it and reopen it, each confirmed with a
 * second tap (GuardedButton).
 */
export const PalletScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [list, setList] = useState<PackingList | undefined>();
  const [unknown, setUnknown] = useState<string | undefined>();
  const [openOnly, setOpenOnly] = useState(true);
  const [page, setPage] = useState<ZongpaiPage | undefined>();
  const { pending, write } = useWrite();
  const busy = pending !== undefined;
  // The list of zongpais and the packing list shown each take their last answer only.
  const latestPage = useLatest();
  const latestList = useLatest();

  const loadPage = async (cursor?: string) => {
    const outcome = await latestPage(
      api.run(
        api.client.GET('/v1/zongpai', {
          params: {
            query: {
              limit: 20,
              ...(openOnly ? { status: 'OPEN' as const } : {}),
              ...(cursor === undefined ? {} : { cursor }),
            },
          },
        }),
      ),
    );
    if (outcome === undefined) return;
    if (!outcome.ok) return app.refused(outcome);
    app.register.rememberCargo(outcome.data.zongpais.map((z) => z.zongpai_no));
    setPage(
      cursor === undefined || page === undefined
        ? outcome.data
        : { zongpais: [...page.zongpais, ...outcome.data.zongpais], next_cursor: outcome.data.next_cursor },
    );
  };
  useEffect(() => {
    if (list === undefined) void loadPage();
  }, [openOnly, list === undefined]);

  const loadList = (zongpaiNo: string, cursor?: string) =>
    latestList(
      api.run(
        api.client.GET('/v1/zongpai/{zongpai_no}/packing-list', {
          params: { path: { zongpai_no: zongpaiNo }, query: { cursor } },
        }),
      ),
    );
  // A packing list opens at its top (its facts, then its boxes), wherever the list of zongpais
  // was scrolled to when one was tapped.
  const section = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (list !== undefined) section.current?.closest('main')?.scrollTo({ top: 0 });
  }, [list?.zongpai_no]);

  const onScan = async (code: string) => {
    const outcome = await loadList(code);
    if (outcome === undefined) return;
    setUnknown(undefined);
    setList(undefined);
    if (outcome.ok) {
      app.register.rememberCargo([outcome.data.zongpai_no, ...outcome.data.boxes.map((b) => b.box_no)]);
      setList(outcome.data);
      return app.notify({
        tone: 'ok',
        text: `${outcome.data.zongpai_no} · ${t('boxCount', { n: outcome.data.box_count })}`,
      });
    }
    // Not a refusal here: this is where a zongpai is registered, and the button to do it is below.
    // The warning tone: the scan is answered, and it asks for a tap.
    if (!('offline' in outcome) && outcome.error.error_code === 'ZONGPAI_NOT_FOUND') {
      const zongpai = code.toUpperCase();
      setUnknown(zongpai);
      return app.notify({
        tone: 'warn',
        text: t('notRegisteredYet', { zongpai }),
        detail: t('tapRegister', { zongpai }),
        code: 'ZONGPAI_NOT_FOUND',
      });
    }
    app.refused(outcome);
  };

  /** A change to a zongpai: shown as the service now has it, with what was done. */
  const change = async (
    name: unknown,
    send: (key: string) => Promise<Outcome<Zongpai>>,
    done: (z: Zongpai) => string,
  ) => {
    const z = await write(name, send);
    if (z === undefined) return;
    app.register.rememberCargo([z.zongpai_no]);
    setUnknown(undefined);
    // A new zongpai is empty; a closed or reopened one keeps its boxes: only its status changed.
    setList((shown) =>
      shown?.zongpai_no === z.zongpai_no
        ? { ...shown, status: z.status }
        : {
            zongpai_no: z.zongpai_no,
            status: z.status,
            box_count: z.box_count,
            total_quantity: z.total_quantity,
            boxes: [],
            totals: [],
            next_cursor: null,
            next_totals_cursor: null,
          },
    );
    app.notify({ tone: 'ok', text: done(z) });
  };

  const register = (zongpaiNo: string) =>
    change(
      { register: zongpaiNo },
      (key) =>
        api.run(
          api.client.POST('/v1/zongpai', {
            body: { zongpai_no: zongpaiNo },
            params: { header: { 'Idempotency-Key': key } },
          }),
        ),
      (z) => t('registered', { zongpai: z.zongpai_no }),
    );
  /**
   * Registers the next SSCC as a new zongpai. A tap while one is under way does nothing (the
   * button is disabled too, once drawn); after no answer, a tap again sends the same request
   * under the same key, which the service answers with the same zongpai: never two of them.
   */
  const ssccUnderWay = useRef(false);
  const registerSscc = async () => {
    if (ssccUnderWay.current) return;
    ssccUnderWay.current = true;
    try {
      await change(
        { sscc: true },
        (key) =>
          api.run(
            api.client.POST('/v1/zongpai', { body: { sscc: true }, params: { header: { 'Idempotency-Key': key } } }),
          ),
        (z) => t('registered', { zongpai: z.zongpai_no }),
      );
    } finally {
      ssccUnderWay.current = false;
    }
  };
  /** Closes an open zongpai, or opens a closed one again: the same request on its own path. */
  const closeOrReopen = (shown: PackingList) => {
    const action = shown.status === 'OPEN' ? 'close' : 'reopen';
    return change(
      { [action]: shown.zongpai_no },
      (key) =>
        api.run(
          api.client.POST(`/v1/zongpai/{zongpai_no}/${action}`, {
            params: { path: { zongpai_no: shown.zongpai_no }, header: { 'Idempotency-Key': key } },
          }),
        ),
      (z) => (action === 'close' ? `${z.zongpai_no}: ${t('closed')}` : t('reopened', { zongpai: z.zongpai_no })),
    );
  };

  return (
    <section class="screen" aria-label={t('pallet')} ref={section}>
      <ScanField label={t('scanZongpai')} onScan={(code) => void onScan(code)} busy={busy} />
      {list === undefined && unknown === undefined && (
        <>
          <div class="actions">
            <h2>{t('pallets')}</h2>
            <label class="toggle">
              <input type="checkbox" checked={openOnly} onChange={(e) => setOpenOnly(e.currentTarget.checked)} />{' '}
              {t('openOnly')}
            </label>
          </div>
          <ul class="picks" data-testid="zongpais">
            {page?.zongpais.map((z) => (
              <li key={z.zongpai_no}>
                <button type="button" onClick={() => void onScan(z.zongpai_no)}>
                  <b>
                    <Code code={z.zongpai_no} />
                  </b>{' '}
                  <span>
                    {z.status === 'OPEN' ? t('open') : t('closed')} · {t('boxCount', { n: z.box_count })}
                  </span>{' '}
                  <small class="muted">{when(z.closed_at ?? z.registered_at)}</small>
                </button>
              </li>
            ))}
          </ul>
          {page?.next_cursor != null && (
            <button type="button" onClick={() => void loadPage(page.next_cursor ?? undefined)}>
              {t('more')}
            </button>
          )}
        </>
      )}
      {list !== undefined && (
        <>
          <dl class="facts">
            <dt>{t('pallet')}</dt>
            <dd data-testid="zongpai-no">
              <Code code={list.zongpai_no} />
            </dd>
            <dt>{t('status')}</dt>
            <dd data-testid="zongpai-status">{list.status === 'OPEN' ? t('open') : t('closed')}</dd>
            <dt>{t('boxes')}</dt>
            <dd>{number(list.box_count)}</dd>
            <dt>{t('total')}</dt>
            <dd data-testid="zongpai-total">{number(list.total_quantity)}</dd>
          </dl>
          <div class="actions">
            <PrintButton label={t('printLabel')} print={(p, a) => p.printLabel(a, { zongpai: list.zongpai_no })} />
            <PrintButton label={t('printPackingList')} print={(p, a) => p.printPackingList(a, list.zongpai_no)} />
          </div>
          <h2>{t('packingList')}</h2>
          <LinesTable head={[t('box'), t('item'), t('total')]} testId="packing-list" wide>
            {list.boxes.map((b) => (
              <tr key={b.box_no} data-state={b.complete ? 'complete' : 'short'}>
                <BoxCell box={b.box_no} note={[b.order_no, b.customer_name].filter((x) => x !== null).join(' · ')} />
                <td>
                  {b.items.map((i) => (
                    <small key={i.item_code}>
                      <span class="item-code">{i.item_code}</span> × {number(i.quantity)}
                    </small>
                  ))}
                </td>
                <td class="num">{number(b.total_quantity)}</td>
              </tr>
            ))}
          </LinesTable>
          <MoreBoxes shown={list} load={(cursor) => loadList(list.zongpai_no, cursor)} show={setList} />
          {list.totals.length > 0 && (
            <>
              <h2>{t('itemTotals')}</h2>
              <LinesTable testId="packing-totals">
                {list.totals.map((i) => (
                  <tr key={i.item_code}>
                    <CodeCell code={i.item_code} note={i.item_name} />
                    <td class="num">
                      {number(i.quantity)} {i.unit ?? ''}
                    </td>
                  </tr>
                ))}
              </LinesTable>
            </>
          )}
        </>
      )}
      {/* The main action, on screen above the tabs however long the packing list. */}
      <div class="action-bar" data-testid="main-action">
        {unknown !== undefined && (
          <button type="button" class="primary" onClick={() => void register(unknown)}>
            {t('register')} <Code code={unknown} />
          </button>
        )}
        {list === undefined && unknown === undefined && app.ssccEnabled && (
          <button type="button" class="primary" disabled={busy} onClick={() => void registerSscc()}>
            {t('newSsccPallet')}
          </button>
        )}
        {list !== undefined && (
          <>
            <button type="button" onClick={() => setList(undefined)}>
              ‹ {t('pallets')}
            </button>
            {app.auth.isSupervisor() && (
              <GuardedButton
                class="danger"
                disabled={busy}
                label={list.status === 'OPEN' ? t('close') : t('reopen')}
                confirmLabel={list.status === 'OPEN' ? t('confirmClose') : t('confirmReopen')}
                onTap={() => void closeOrReopen(list)}
              />
            )}
          </>
        )}
      </div>
    </section>
  );
};
