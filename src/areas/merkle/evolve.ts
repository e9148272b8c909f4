// How the merkle area's events change the world state (evolve): a page damaged by the `corrupt`
// fault, a reindex running and ending (it repairs the damage), and the time of the last merkle-check.
import type { SimDraft } from '../core/draft.js';
import type { MerkleChecked, MerkleCorrupted, ReindexAbandoned, ReindexFinished, ReindexStarted } from './events.js';

export const merkleReducers = {
  'merkle-corrupted': (d: SimDraft, e: MerkleCorrupted) => {
    const pages = d.clusters[e.cluster].merkle.corrupted[e.tree];
    const subpages = pages[e.page] ?? [];
    if (!subpages.includes(e.subpage)) pages[e.page] = [...subpages, e.subpage].sort((a, b) => a - b);
  },
  'reindex-started': (d: SimDraft, e: ReindexStarted) => {
    d.clusters[e.cluster].merkle.reindexUntil = e.until;
  },
  'reindex-finished': (d: SimDraft, e: ReindexFinished) => {
    const m = d.clusters[e.cluster].merkle;
    m.corrupted = { replicated: {}, local: {} };
    m.lastReindexAt = e.at;
    m.reindexUntil = null;
  },
  'reindex-abandoned': (d: SimDraft, e: ReindexAbandoned) => {
    d.clusters[e.cluster].merkle.reindexUntil = null;
  },
  'merkle-checked': (d: SimDraft, e: MerkleChecked) => {
    d.clusters[e.cluster].merkle.lastCorruptionCheckAt = e.at;
  },
};
