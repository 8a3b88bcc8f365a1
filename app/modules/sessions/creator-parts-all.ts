// The creator's parts of a session page, in one chunk: see creator-parts.tsx.
export { CreatorView } from './creator-view'
export { RecapLine, RecapPanel } from './recap'
export { StopConfirm } from './stop-confirm'
