import type { ButtonHTMLAttributes } from 'react';
import type { useDropdown } from './use-dropdown';

type Dropdown = Pick<ReturnType<typeof useDropdown>, 'open' | 'setOpen' | 'buttonRef'>;

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'onClick' | 'aria-expanded' | 'aria-controls'> {
  /** The menu's state from useDropdown (the button is its focus target on Escape). */
  dropdown: Dropdown;
  /** The id of the panel the button opens. */
  controls: string;
}

/**
 * The button of a top bar dropdown: toggles it and tells assistive technology whether it is open.
 * Other attributes (label, title, test id, handlers) pass through in the caller's order.
 */
export function DropdownToggle({ dropdown, controls, className, children, ...rest }: Props) {
  const { open, setOpen, buttonRef } = dropdown;
  return (
    <button ref={buttonRef} type="button" className={className} aria-expanded={open} aria-controls={controls} {...rest} onClick={() => setOpen((o) => !o)}>
      {children}
    </button>
  );
}
