import { useState } from 'preact/hooks';
import { Field } from './Field';

/**
 * A permanent action behind a typed word (a project's name, DELETE): the button works only once
 * the field holds exactly that word, and the server's refusal is shown under the field.
 */
export function ConfirmByTyping({ id, word, label, button, onConfirm }: { id: string; word: string; label: string; button: string; onConfirm: () => Promise<void> }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (typed !== word) return setError(`type ${word} exactly to confirm`);
        setBusy(true);
        setError(undefined);
        try {
          await onConfirm();
        } catch (err) {
          setError((err as Error).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Field id={id} label={label} error={error}>
        {(props) => <input {...props} value={typed} autoComplete="off" spellcheck={false} onInput={(e) => setTyped(e.currentTarget.value)} />}
      </Field>
      <button type="submit" class="danger" disabled={busy || typed !== word}>
        {button}
      </button>
    </form>
  );
}
