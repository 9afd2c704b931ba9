-- A burst's collapse group is keyed by its category and its rendered collapse key, `burst:<category id>:<key>`
-- (`Decider.burstKey`); a digest preference's group keeps `digest:<category id>`. Before, the rendered key alone
-- named the group, so two categories with the same collapse template shared one burst, and the category whose event
-- armed the timer decided it all when the window closed (turned off, it took the other category's events with it).
-- The collapse id the pushes carry is still the rendered key, and a stored group keeps its own.
--
-- The groups and timers stored under the old form are rewritten, so a burst running across the upgrade is neither
-- lost nor closed under a key no event renders any more:
--   * a group with a close timer takes the timer's category, the one that would have decided it, and the timer goes
--     with it; a timer whose group is gone (it fires and finds nothing) is rewritten the same way;
--   * a group without a timer (its first push went out and nothing folded yet, or a window whose timer could not be
--     re-armed) takes the category of its first event, else of its latest folded one, from the stored events;
--   * a group whose events are no longer stored is dropped when it folded nothing (nothing is lost: the next event
--     starts a new burst), and kept as it is otherwise.
-- A group is a digest preference's when its key is `digest:` and the category found for it; those stay as they are.
-- Categories' ids have no `:` (their pattern is [a-z0-9._-]), so the new keys never meet a digest key.

CREATE TEMPORARY TABLE collapse_group_categories ON COMMIT DROP AS
SELECT g.user_id, g.key,
       coalesce(
           (SELECT t.category_id FROM timers t WHERE t.user_id = g.user_id AND t.key = g.key),
           (SELECT e.category_id
            FROM event_keys k JOIN events e ON e.seq = k.seq
            WHERE k.source = split_part(r.reference, '/', 1)
              AND k.id = substr(r.reference, length(split_part(r.reference, '/', 1)) + 2))
       ) AS category_id,
       g.state ->> 'phase' AS phase
FROM collapse_groups g
CROSS JOIN LATERAL (
    SELECT coalesce(g.state ->> 'first_event_id', g.state -> 'latest_items' -> -1 ->> 'event_id') AS reference
) r;

DELETE FROM collapse_groups g
USING collapse_group_categories c
WHERE g.user_id = c.user_id AND g.key = c.key AND c.category_id IS NULL AND c.phase = 'open';

UPDATE collapse_groups g
SET key = 'burst:' || c.category_id || ':' || g.key,
    state = jsonb_set(g.state, '{key}', to_jsonb('burst:' || c.category_id || ':' || g.key))
FROM collapse_group_categories c
WHERE g.user_id = c.user_id AND g.key = c.key AND c.category_id IS NOT NULL
  AND g.key <> 'digest:' || c.category_id;

UPDATE timers
SET key = 'burst:' || category_id || ':' || key
WHERE key <> 'digest:' || category_id;
