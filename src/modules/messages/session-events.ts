/**
 * Events of a session's changes: they route WebSocket pushes to its status streams by
 * session_id (docs/realtime.md). Its messages' memories report through their own events.
 */
export const SESSION_MESSAGE = 'session.message';
export const SESSION_QUEUED = 'session.queued';
export const SESSION_MEMORIZED = 'session.memorized';
export const SESSION_FAILED = 'session.failed';
export const SESSION_SUMMARIZED = 'session.summarized';
/** PATCH …: its title (in its status) or metadata changed. */
export const SESSION_UPDATED = 'session.updated';
