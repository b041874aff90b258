import { Link } from 'wouter';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { routes } from '../../paths.ts';

export default function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot Password?">
      <p>
        Passwords are reset by the clinic. Please contact the clinic's front desk, in person or by phone: they will give
        you a link, valid for 30 minutes, where you choose a new password.
      </p>
      <p className="auth-switch">
        <Link href={routes.login}>Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
