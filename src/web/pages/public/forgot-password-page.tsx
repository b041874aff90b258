import { Link } from 'wouter';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { routes } from '../../paths.ts';

export default function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot Password?">
      <p>
        Passwords are reset by the clinic. Please contact the clinic's front desk, in person or by phone, and we will
        help you sign in again.
      </p>
      <p className="auth-switch">
        <Link href={routes.login}>Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
