// The signed-in user as the handlers, the jobs and the modules see it (core/auth.ts loads it).
export interface CurrentUser {
  id: number;
  username: string;
  fullName: string;
  email: string;
  dealerId: number | null;
  isDealer: boolean;
  tokenVersion: number;
  roles: string[];
  permissions: Set<string>;
}
