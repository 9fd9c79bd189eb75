const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** A keycap (1️⃣), a flag (two regional indicators) or anything built on a pictographic character (😀, 👩‍💻, 🏴‍☠️). */
const EMOJI = /^(?:[#*0-9]\uFE0F?\u20E3|\p{Regional_Indicator}{2}|\p{Extended_Pictographic}.*)$/su;

/** True when `text` is exactly one emoji: one user-perceived character that is an emoji. */
export function isSingleEmoji(text: string): boolean {
  if (text.length === 0 || text.length > 32) return false;
  const parts = [...graphemes.segment(text)];
  return parts.length === 1 && EMOJI.test(text);
}
