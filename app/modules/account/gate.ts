/** Pages on which the username and terms dialogs are not forced (docs/product.md §2.7). */
const HIDE_AUTH_DIALOGS = ['terms', 'privacy', 'imprint', 'creator-agreement', 'confirm', 'password-reset', 'login', 'register']

export function hidesAuthDialogs(pathname: string): boolean {
	const page = pathname.split('/')[2] ?? ''
	return HIDE_AUTH_DIALOGS.includes(page)
}

/** The actions a visitor must sign in for (docs/product.md §2.6); each has its must-log-in toast, gate.must-log-in-{reason}. */
export const GATED_REASONS = ['boost', 'create-dare', 'vote', 'buy'] as const
export type GatedReason = (typeof GATED_REASONS)[number]
