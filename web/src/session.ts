// Owns the console's session as GET /console/api/session gives it: the user, the CSRF token every
// change carries, the operations the user's account is approved for live and every operation's slug.
// Its own module, so that main.tsx and the pages it renders both import it without an import circle.
export interface Session {
  user: { id: string; email: string; is_admin: boolean; account_id: string | null };
  csrf_token: string;
  approvals: string[];
  operations: string[];
}
