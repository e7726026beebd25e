"""Alternating rounds for the rows measured against a reference that drifts with the machine."""


def alternate(rounds, reference, measured):
    """Runs `reference()` then `measured()` (each answering a dict with "rate") `rounds` times.

    Answers the median round's (measured, reference) results and every round's ratio, in
    ascending order: on a shared VM the speed drifts by 10-20 % over minutes, so a reference
    measured apart from its row skews the ratio.
    """
    results = []
    for _ in range(rounds):
        ref = reference()
        got = measured()
        results.append((got["rate"] / ref["rate"], got, ref))
    results.sort(key=lambda entry: entry[0])
    _, got, ref = results[len(results) // 2]
    return got, ref, [round(ratio, 3) for ratio, _, _ in results]
