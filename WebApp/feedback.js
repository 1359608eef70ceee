// A short beep and a vibration after a scan, where the device allows (a vibration is ignored
// where there is none; audio needs a user's gesture first, which a scan's Enter is).
let audio;

/** Signals a matched (`ok`) or unmatched scan. */
export function feedback(ok) {
  navigator.vibrate?.(ok ? 60 : [80, 60, 80]);
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = ok ? 1200 : 300;
    gain.gain.value = 0.1;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + (ok ? 0.08 : 0.25));
  } catch { /* no audio on this device */ }
}
