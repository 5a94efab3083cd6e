import { useState } from 'preact/hooks';
import { useApp } from '../context.ts';

/** Sign in with the user pool's user name and password (the same call on AWS and locally). */
export const SignInScreen = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const app = useApp();
  const { t } = app;
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="screen signin"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setBusy(true);
        const result = await app.auth.signIn(String(form.get('user') ?? '').trim(), String(form.get('password') ?? ''));
        setBusy(false);
        if (result.ok) return onSignedIn();
        if (result.reason === 'challenge') {
          const newPassword = result.message === 'NEW_PASSWORD_REQUIRED';
          return app.notify({
            tone: 'error',
            text: newPassword ? t('signInNewPassword') : t('signInChallenge', { step: result.message }),
            detail: newPassword ? t('signInNewPasswordDetail') : t('signInChallengeDetail'),
            code: result.message,
          });
        }
        app.notify({
          tone: 'error',
          text:
            result.reason === 'wrong'
              ? t('wrongPassword')
              : result.reason === 'offline'
                ? t('signInOffline')
                : result.message,
          code: result.reason,
        });
      }}
    >
      <label class="field">
        {t('user')}
        <input name="user" autocomplete="username" autocapitalize="none" required />
      </label>
      <label class="field">
        {t('password')}
        <input name="password" type="password" autocomplete="current-password" required />
      </label>
      {/* npm run budget:web times the first render by this button's paint (Element Timing). */}
      <button type="submit" class="primary" disabled={busy} elementtiming="sign-in">
        {t('signIn')}
      </button>
    </form>
  );
};
