import { useSyncExternalStore } from 'react'

/**
 * The tab's newest reading of the signed-in user's balance, above the one a
 * loader gave (`base`): pushed on `wallets_{userId}` (`{balance, seq}`), or
 * answered by the user's own action (a boost's answer carries the balance
 * after it). Shown while the loader's reading it arrived on is the one
 * shown; a new loader reading replaces it. An action's answer never hides a
 * push that came after the action was sent: the push was read later.
 */
interface Reading {
	userId: string
	base: number
	value: number
	seq: number
	pushedAt: number
}

let current: Reading | null = null
const listeners = new Set<() => void>()

function set(next: Reading) {
	current = next
	for (const listener of listeners) listener()
}

/** A `wallets_{userId}` payload; anything but `{balance, seq}` with counts is ignored. */
export function balancePushed(userId: string, base: number, payload: unknown) {
	const { balance, seq } = (payload ?? {}) as { balance?: unknown; seq?: unknown }
	if (!Number.isSafeInteger(balance) || !Number.isSafeInteger(seq)) return
	const same = current?.userId === userId && current.base === base
	if (same && (seq as number) < current!.seq) return
	set({ userId, base, value: balance as number, seq: seq as number, pushedAt: Date.now() })
}

/** The balance an action of the user's answered with, the action sent at `sentAt`. */
export function balanceAnswered(userId: string, base: number, value: number, sentAt: number) {
	const same = current?.userId === userId && current.base === base
	if (same && current!.pushedAt >= sentAt) return
	set({ userId, base, value, seq: same ? current!.seq : 0, pushedAt: same ? current!.pushedAt : 0 })
}

/** The balance to show for `userId` over the loader's `base`. */
export function useLiveBalance(userId: string, base: number): number {
	const reading = useSyncExternalStore(
		(listener) => {
			listeners.add(listener)
			return () => void listeners.delete(listener)
		},
		() => current,
		() => null,
	)
	return reading && reading.userId === userId && reading.base === base ? reading.value : base
}
