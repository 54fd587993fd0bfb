namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// How long each operation's replies have lately taken on one connection (request written to answer
/// read, a moving average), so that the process's only call in flight spins about as long as its reply
/// takes: a 248,832-byte echo answers in ~100 µs here, past the 50-µs default, so every such call used to
/// give up its spin and wait for the reader thread and a pool thread instead (two wake-ups per reply).
/// Used under the connection's read lock.
/// </summary>
internal sealed class ReplyTimes
{
    /// <summary>How far past its spin setting a call may spin for an operation that answers within that (4 × 50 µs by default).</summary>
    public const int MaxStretch = 4;

    private long[] _typical = new long[8];

    /// <summary>Counts a reply of operation <paramref name="id"/> that took <paramref name="ticks"/> (Stopwatch ticks).</summary>
    public void Record(ushort id, long ticks)
    {
        if (ticks <= 0)
        {
            return;
        }

        if (id >= _typical.Length)
        {
            Array.Resize(ref _typical, Math.Max(id + 1, 2 * _typical.Length));
        }

        // An eighth of each new reply: one slow reply moves the budget little, a change of pace within a few calls.
        var typical = _typical[id];
        _typical[id] = typical == 0 ? ticks : typical + ((ticks - typical) / 8);
    }

    /// <summary>
    /// The spin a call of operation <paramref name="id"/> gets with <paramref name="spinTicks"/> set: a
    /// quarter more than the operation's replies have lately taken, at least the setting and at most
    /// <see cref="MaxStretch"/> times it. A slower operation (a directory read) spins that much and
    /// fails; the connection's backoff then skips its next spins (1, 2, 4 … 64 of them, whichever
    /// operation they are for). The times run long rather than short (from before the request's send
    /// to the reply read, a reader's wake-up included when the caller did not read it): within the cap,
    /// a longer spin that succeeds costs less than a short one that fails.
    /// </summary>
    public long BudgetFor(ushort id, long spinTicks)
    {
        var typical = id < _typical.Length ? _typical[id] : 0;
        return Math.Clamp(typical + (typical / 4), spinTicks, MaxStretch * spinTicks);
    }
}
