import { useEffect, useRef } from 'preact/hooks';
import { useApp } from './context.ts';

/** The browser's barcode reader (Chrome on Android has it); not in TypeScript's DOM types yet. */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
declare const BarcodeDetector: { new (options?: { formats?: string[] }): BarcodeDetectorLike } | undefined;

export const hasBarcodeDetector = (): boolean =>
  typeof BarcodeDetector !== 'undefined' && navigator.mediaDevices !== undefined;

/** The rear camera, read for a barcode a few times a second until one is found. */
export const Camera = ({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) => {
  const { t } = useApp();
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const detector = new BarcodeDetector!({ formats: ['code_128', 'ean_13', 'qr_code', 'data_matrix', 'code_39'] });
    const look = async () => {
      if (stopped || video.current === null) return;
      const found = await detector.detect(video.current).catch(() => []);
      if (found[0] !== undefined) return onCode(found[0].rawValue);
      timer = setTimeout(() => void look(), 150);
    };
    void navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (s) => {
        stream = s;
        if (video.current === null) return;
        video.current.srcObject = s;
        await video.current.play();
        void look();
      })
      .catch(onClose);
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);
  return (
    <div class="camera">
      <video ref={video} muted playsInline />
      <button type="button" onClick={onClose}>
        {t('closeCamera')}
      </button>
    </div>
  );
};
