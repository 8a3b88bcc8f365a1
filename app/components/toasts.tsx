import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Toaster, toast as showToast } from 'sonner'
import { useHydrated } from '#app/utils/use-hydrated'
import { GATE_DELETE_ACCOUNT_ID, openDeleteAccount } from './delete-account'

/**
 * The spec's toast defaults (section 9). Sonner takes the first four as
 * props; the width is its `--width` CSS variable on the toaster (set here so
 * it does not rest on sonner's own default), and the swipe distance that
 * dismisses a toast is sonner's fixed SWIPE_THRESHOLD, 45 px, which it offers
 * no option for (toasts.test.tsx fails if an upgrade changes it).
 */
export const TOASTER_DEFAULTS = {
	position: 'bottom-right',
	visibleToasts: 3,
	duration: 4000,
	gap: 14,
	width: 356,
	swipeThreshold: 45,
} as const

/** Sonner's Toaster with the spec's defaults. */
export function AppToaster() {
	const { position, visibleToasts, duration, gap, width } = TOASTER_DEFAULTS
	return (
		<Toaster
			position={position}
			visibleToasts={visibleToasts}
			duration={duration}
			gap={gap}
			style={{ '--width': `${width}px` } as React.CSSProperties}
			richColors
			closeButton
		/>
	)
}

export type FlashToast = {
	type: 'success' | 'error' | 'info' | 'warning'
	message: string
	description: string | null
	/** `delete-account`: the toast offers the delete-account confirmation of the account dialog (declined terms). */
	action: 'delete-account' | null
}

/**
 * Toasts travel in a flash cookie (remix-toast) and arrive in the root
 * loader. The server HTML carries the message in an aria-live region, so it
 * shows without JavaScript; once hydrated, sonner takes over with the spec's
 * defaults (TOASTER_DEFAULTS).
 */
export function Toasts({ toast }: { toast: FlashToast | null }) {
	const hydrated = useHydrated()
	const { t } = useTranslation()
	useEffect(() => {
		if (!hydrated || !toast) return
		showToast[toast.type](toast.message, {
			...(toast.description ? { description: toast.description } : {}),
			...(toast.action === 'delete-account'
				? { duration: 10_000, action: { label: t('account.delete-account'), onClick: () => openDeleteAccount(GATE_DELETE_ACCOUNT_ID) } }
				: {}),
		})
	}, [hydrated, toast, t])
	return (
		<>
			{!hydrated && toast ? (
				<div className={`flash flash--${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'} aria-live="polite">
					<strong>{toast.message}</strong>
					{toast.description ? <p>{toast.description}</p> : null}
					{toast.action === 'delete-account' ? (
						<p>
							<a href={`#${GATE_DELETE_ACCOUNT_ID}`}>{t('account.delete-account')}</a>
						</p>
					) : null}
				</div>
			) : null}
			<AppToaster />
		</>
	)
}
