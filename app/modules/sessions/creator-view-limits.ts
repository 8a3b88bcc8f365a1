/**
 * What the creator's view of their live session (creator-view.tsx) and the
 * dares' action (app/modules/dares/actions.server.ts) agree on; no zod here,
 * so the page's script stays small.
 */

/**
 * How much more time the creator may give a running vote at once, in
 * seconds (public.extend_vote holds the same numbers, and at most an hour
 * left after it), and the buttons the view offers.
 */
export const VOTE_EXTENSION = { min: 30, max: 600, step: 5, buttons: [60, 120] } as const

/**
 * The view sends its forms with `from=creator-view`: without JavaScript the
 * answer's redirect comes back to the view (its id), not to the dare's card
 * further down the page.
 */
export const FROM_FIELD = 'from'
export const CREATOR_VIEW_ID = 'creator-view'
