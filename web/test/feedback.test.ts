import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A stand-in for the Web Audio API that records which oscillator waveforms are made, and
 * whether the first of each was made before the first tone (its band-limited table is computed
 * then: about 17 ms for a square wave on a 4x-throttled CPU, which would delay the first scan's
 * colour on screen).
 */
class FakeAudioContext {
  static readonly waves: { type: string; primed: boolean }[] = [];
  static priming = true;
  readonly currentTime = 0;
  readonly destination = {};
  createOscillator() {
    let type = 'sine';
    FakeAudioContext.waves.push({ type, primed: FakeAudioContext.priming });
    const entry = FakeAudioContext.waves.at(-1)!;
    return {
      get type() {
        return type;
      },
      set type(value: string) {
        type = value;
        entry.type = value;
      },
      frequency: { value: 0 },
      connect: (node: unknown) => node,
      start: () => undefined,
      stop: () => undefined,
    };
  }
  createGain() {
    return {
      gain: { value: 1, setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (node: unknown) => node,
    };
  }
}

describe('the scan tones', () => {
  beforeEach(() => {
    vi.resetModules();
    FakeAudioContext.waves.length = 0;
    FakeAudioContext.priming = true;
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes every waveform a tone plays when the audio is primed, before the first scan', async () => {
    const { primeAudio, signal } = await import('../src/feedback.ts');
    primeAudio();
    FakeAudioContext.priming = false;
    for (const tone of ['ok', 'warn', 'error'] as const) signal(tone);

    const played = new Set(FakeAudioContext.waves.filter((w) => !w.primed).map((w) => w.type));
    const primed = new Set(FakeAudioContext.waves.filter((w) => w.primed).map((w) => w.type));
    expect([...played].sort()).toEqual(['sine', 'square']);
    expect([...primed].sort()).toEqual([...played].sort());
  });
});
