/** A new password typed twice, with the rules the server applies named in its hint. */
import { useState } from 'react';
import { Field } from './field.tsx';

export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  return {
    password,
    repeat,
    setPassword,
    setRepeat,
    /** The second typing differs from the first: the form is not sent. */
    mismatch: repeat !== '' && repeat !== password,
    clear: () => {
      setPassword('');
      setRepeat('');
    },
  };
}

export function NewPasswordFields({ state, errors }: { state: ReturnType<typeof useNewPassword>; errors?: string[] }) {
  return (
    <>
      <Field label="New password" errors={errors} hint="At least 8 characters; not a common password.">
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={state.password}
            onChange={(e) => state.setPassword(e.target.value)}
          />
        )}
      </Field>
      <Field label="Repeat the new password" errors={state.mismatch ? ['The passwords do not match'] : undefined}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            required
            value={state.repeat}
            onChange={(e) => state.setRepeat(e.target.value)}
          />
        )}
      </Field>
    </>
  );
}
