/**
 * The answer to every scan, given at once: a tone, a vibration and a colour, each its own for
 * success, warning and refusal so an operator who does not look still knows.
 */
export type Tone = 'ok' | 'warn' | 'error';

const TONES: Record<Tone, { notes: readonly number[]; ms: number; vibrate: number | number[] }> = {
  ok: { notes: [1320], ms: 70, vibrate: 40 },
  warn: { notes: [660, 880], ms: 90, vibrate: [60, 40, 60] },
  error: { notes: [330, 220], ms: 180, vibrate: [200, 80, 200] },
};

let audio: AudioContext | undefined;

const beep = (tone: Tone) => {
  try {
    audio ??= new AudioContext();
    const { notes, ms } = TONES[tone];
    let at = audio.currentTime;
    for (const frequency of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = tone === 'error' ? 'square' : 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.25, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
      at += ms / 1000 + 0.03;
    }
  } catch {
    // No audio on this device: vibration and colour still answer.
  }
};

/**
 * Creates the audio output ahead of the first scan (creating it takes a few hundred ms on a slow
 * device, and browsers allow it only after a tap or a key): called on the first one. It also
 * plays one silent note through the same oscillator and gain as a tone, so the first scan's tone
 * does not pay for creating the first audio nodes (about 10 ms on a 4x-throttled CPU) before its
 * colour is on screen.
 */
export const primeAudio = (): void => {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.01);
  } catch {
    // No audio on this device.
  }
};

/** Plays the tone and vibration now; the colour is the banner's (`data-tone`), set by the caller. */
export const signal = (tone: Tone): void => {
  navigator.vibrate?.(TONES[tone].vibrate);
  beep(tone);
};
