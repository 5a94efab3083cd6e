import { useState } from 'preact/hooks';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { refusalAtScan } from '../refused-scan.ts';
import { classifyBoxScan } from '../register.ts';
import { ScanField } from '../scan-field.tsx';
import { PendingStatus, useWrite } from '../write.tsx';
import { alreadyBoxedNotice } from './box.tsx';
import { useRepeatOfSave } from './repeat-save.ts';

/**
 * One scan: the box, then the zongpai; the box is saved exactly as its ERP plan says. The
 * zongpai scanned again after the save is told as a repeat, never taken for the next box. What
 * cannot be a box (no box number by the deployment's pattern, or a location label of the
 * register) is refused at the scan, also offline, as Locate and Find refuse it.
 */
export const OneScanScreen = () => {
  const app = useApp();
  const { t, api } = app;
  const [box, setBox] = useState<string | undefined>();
  const { pending, write } = useWrite('scanZongpaiAgain');
  const repeat = useRepeatOfSave();

  /** A box boxed already is told with its zongpai (the refusal does not name it), as Box tells it. */
  const alreadyBoxed = async (boxNo: string) => {
    const info = await api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: boxNo } } }));
    return info.ok && info.data.status === 'BOXED' ? alreadyBoxedNotice(app, info.data) : undefined;
  };

  const save = async (boxNo: string, zongpaiNo: string) => {
    const body = { box_no: boxNo, zongpai_no: zongpaiNo };
    const saved = await write(
      body,
      (key) => api.run(api.client.POST('/v1/box/simple', { body, params: { header: { 'Idempotency-Key': key } } })),
      // A wrong box starts over; a wrong zongpai is scanned again for the same box.
      (error) => {
        if (error.domain !== 'zongpai') setBox(undefined);
        if (error.error_code === 'BOX_ALREADY_BOXED') return alreadyBoxed(boxNo);
      },
    );
    if (saved === undefined) return;
    app.register.rememberCargo([saved.box_no, saved.zongpai_no]);
    const notice = {
      tone: 'ok',
      text: t('savedOnZongpai', { box: saved.box_no, zongpai: saved.zongpai_no ?? zongpaiNo }),
    } as const;
    repeat.saved([zongpaiNo, saved.zongpai_no ?? zongpaiNo], saved.box_no, notice);
    app.notify(notice);
    setBox(undefined);
  };

  const onScan = (code: string) => {
    if (box !== undefined) return void save(box, code);
    if (repeat.isRepeat(code)) return;
    const scanned = classifyBoxScan(app.register, code, app.rules);
    if (scanned.kind !== 'cargo')
      return app.notify(refusalAtScan(app.lang, scanned.kind === 'location' ? 'CARGO_IS_LOCATION' : 'INVALID_BOX_NO'));
    setBox(scanned.code);
    app.notify({ tone: 'ok', text: scanned.code });
  };

  return (
    <section class="screen" aria-label={t('oneScan')}>
      <ScanField
        label={box === undefined ? t('scanBox') : t('scanZongpai')}
        onScan={onScan}
        busy={pending !== undefined}
      />
      <PendingStatus pending={pending} />
      {box !== undefined && (
        <div class="actions">
          <p class="big" data-testid="box-no">
            <Code code={box} />
          </p>
          <button type="button" onClick={() => setBox(undefined)}>
            {t('newBox')}
          </button>
        </div>
      )}
    </section>
  );
};
