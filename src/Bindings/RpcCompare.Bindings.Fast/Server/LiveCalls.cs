namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The calls of one connection still to be answered, by id, and the cancellation sources of those
/// whose service takes a CancellationToken. A Cancel frame takes a call out at once (the client is
/// told so, and the call's own answer is dropped when it comes); a call already answered is not
/// here, so a Cancel that crossed its answer changes nothing. Not thread-safe: the connection's
/// sender uses it under its lock.
/// </summary>
internal sealed class LiveCalls
{
    private readonly HashSet<uint> _live = [];
    private readonly Dictionary<uint, CancellationTokenSource> _tokens = [];

    /// <summary>A call with <paramref name="callId"/> was dispatched (0, a one-way call, is never answered and not kept).</summary>
    public void Start(uint callId)
    {
        if (callId != 0)
        {
            _live.Add(callId);
        }
    }

    /// <summary>A token the client's Cancel frame (or the connection closing) cancels.</summary>
    public CancellationToken TokenFor(uint callId)
    {
        var source = new CancellationTokenSource();
        _tokens[callId] = source;
        return source.Token;
    }

    /// <summary>
    /// The call finished: true when it is still to be answered (not cancelled, not one-way). Its
    /// cancellation source, if any, is handed back for disposal: the service is done with its token.
    /// </summary>
    public bool Finish(uint callId, out CancellationTokenSource? token)
    {
        _tokens.Remove(callId, out token);
        return _live.Remove(callId);
    }

    /// <summary>
    /// The client cancelled: true when the call was still to be answered (then the client is told at
    /// once). Its source, if any, is to be cancelled; it stays until the call finishes.
    /// </summary>
    public bool Cancel(uint callId, out CancellationTokenSource? token)
    {
        _tokens.TryGetValue(callId, out token);
        return _live.Remove(callId);
    }

    /// <summary>Every call's source, to cancel when the connection closes: its client is gone.</summary>
    public CancellationTokenSource[] TakeAllTokens()
    {
        CancellationTokenSource[] all = [.. _tokens.Values];
        _tokens.Clear();
        _live.Clear();
        return all;
    }
}
