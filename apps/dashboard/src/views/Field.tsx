import type { ComponentChildren } from 'preact';

/**
 * The server's refusal when it names `field` (`notify_email must be an e-mail address`,
 * `executor_config.test_min must not be less than 0`): shown beside that field.
 */
export function fieldError(detail: string | undefined, field: string): string | undefined {
  if (!detail) return undefined;
  const named = detail.split('; ').filter((part) => new RegExp(`(^|[\\s.])${field}\\b`).test(part));
  return named.length > 0 ? named.join('; ') : undefined;
}

interface ControlProps {
  id: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

/** A labelled form control with its error below it, tied to it for screen readers. */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: (props: ControlProps) => ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, ...(error ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {}) })}
      {error && (
        <p id={`${id}-error`} class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
