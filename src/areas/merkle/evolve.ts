// How the merkle area's events change the world state (evolve): a page damaged by the `corrupt`
// fault, a reindex running and ending (it repairs the damage), and the time of the last merkle-check.
import { onCluster } from '../core/reduce.js';
import type { SimReducers } from '../sim-area.js';
import type { MerkleChecked, MerkleCorrupted, ReindexAbandoned, ReindexFinished, ReindexStarted } from './events.js';

export const merkleReducers = {
  'merkle-corrupted': onCluster((c, e: MerkleCorrupted) => {
    const pages = c.merkle.corrupted[e.tree];
    const subpages = pages[e.page] ?? [];
    if (!subpages.includes(e.subpage)) pages[e.page] = [...subpages, e.subpage].sort((a, b) => a - b);
  }),
  'reindex-started': onCluster((c, e: ReindexStarted) => {
    c.merkle.reindexUntil = e.until;
  }),
  'reindex-finished': onCluster((c, e: ReindexFinished) => {
    const m = c.merkle;
    m.corrupted = { replicated: {}, local: {} };
    m.lastReindexAt = e.at;
    m.reindexUntil = null;
  }),
  'reindex-abandoned': onCluster((c, _e: ReindexAbandoned) => {
    c.merkle.reindexUntil = null;
  }),
  'merkle-checked': onCluster((c, e: MerkleChecked) => {
    c.merkle.lastCorruptionCheckAt = e.at;
  }),
} satisfies SimReducers;
