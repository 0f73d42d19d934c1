/** A form's general error (no single field is at fault), announced when it appears. */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="pf-error" role="alert">
      {text}
    </p>
  );
}
