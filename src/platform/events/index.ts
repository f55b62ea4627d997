export {
  createEventPublisher,
  EVENTS_CHANNEL,
  type EventNotice,
  type EventRow,
  type EventSubscriber,
  type NewEvent,
  type Publish,
} from './bus.ts';
export { deleteEventsOf, getEvent, hasBatchEvent, pruneEvents } from './events.store.ts';
