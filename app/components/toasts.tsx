import { useEffect } from 'react'
import { Toaster, toast as showToast } from 'sonner'
import { useHydrated } from '#app/utils/use-hydrated'

export type FlashToast = { type: 'success' | 'error' | 'info' | 'warning'; message: string; description: string | null }

/**
 * Toasts travel in a flash cookie (remix-toast) and arrive in the root
 * loader. The server HTML carries the message in an aria-live region, so it
 * shows without JavaScript; once hydrated, sonner takes over with the spec's
 * defaults (3 visible, 4000 ms, gap 14, bottom-right).
 */
export function Toasts({ toast }: { toast: FlashToast | null }) {
	const hydrated = useHydrated()
	useEffect(() => {
		if (!hydrated || !toast) return
		showToast[toast.type](toast.message, toast.description ? { description: toast.description } : undefined)
	}, [hydrated, toast])
	return (
		<>
			{!hydrated && toast ? (
				<div className={`flash flash--${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'} aria-live="polite">
					<strong>{toast.message}</strong>
					{toast.description ? <p>{toast.description}</p> : null}
				</div>
			) : null}
			<Toaster position="bottom-right" visibleToasts={3} duration={4000} gap={14} richColors closeButton />
		</>
	)
}
