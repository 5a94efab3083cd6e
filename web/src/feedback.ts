/**
 * The answer to every scan, given at once: a tone, a vibration and a colour, each its own for
 * success, warning, refusal and a location switched, so an operator who does not look still knows.
 */
export type Tone = 'ok' | 'warn' | 'error' | 'place';

const TONES: Record<Tone, { wave: OscillatorType; notes: readonly number[]; ms: number; vibrate: number | number[] }> =
  {
    ok: { wave: 'sine', notes: [1320], ms: 70, vibrate: 40 },
    warn: { wave: 'sine', notes: [660, 880], ms: 90, vibrate: [60, 40, 60] },
    error: { wave: 'square', notes: [330, 220], ms: 180, vibrate: [200, 80, 200] },
    // A location scanned: the current location switched (rising, so it is not taken for a cargo's OK).
    place: { wave: 'sine', notes: [880, 1175, 1568], ms: 60, vibrate: [30, 30, 30] },
  };

/** Each waveform the tones use once: the first oscillator of each computes its wave table. */
const WAVES = [...new Set(Object.values(TONES).map((t) => t.wave))];

let audio: AudioContext | undefined;

const beep = (tone: Tone) => {
  try {
    audio ??= new AudioContext();
    const { wave, notes, ms } = TONES[tone];
    let at = audio.currentTime;
    for (const frequency of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
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
 * plays one silent note of each waveform through the same oscillator and gain as a tone, so the
 * first scan's tone does not pay before its colour is on screen for creating the first audio
 * nodes (about 10 ms on a 4x-throttled CPU) or for the band-limited table of its waveform (the
 * first square wave's, about 17 ms there).
 */
export const primeAudio = (): void => {
  try {
    audio ??= new AudioContext();
    for (const wave of WAVES) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      gain.gain.value = 0;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.01);
    }
  } catch {
    // No audio on this device.
  }
};

/** Plays the tone and vibration now; the colour is the banner's (`data-tone`), set by the caller. */
export const signal = (tone: Tone): void => {
  navigator.vibrate?.(TONES[tone].vibrate);
  beep(tone);
};
