namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// When a <see cref="MultiplexedConnection"/>'s reader thread waits on the socket. While callers read
/// their own replies (the process's only call in flight, within its spin), it stands down once no call
/// is left to it, and a caller whose spin ran out wakes it: left in <c>poll()</c>, it was woken by every
/// reply the caller was already reading, and on two cores that wake-up took the core the other process
/// needed (at 248,832 B the Task calls ran at two thirds of the caller-thread way). While calls are left
/// to it (several in flight: nobody spins) it keeps watching, so each reply costs one wake-up, not a
/// wake-up to start watching and another for the bytes.
/// </summary>
/// <remarks>
/// The wanted flag is only read and written under the gate's lock, so a caller's "is anyone reading?"
/// and the reader's "stand down, then look again for calls" cannot both miss each other. The
/// callers-read hint is written without it: a stale value only makes the reader stand down or stay
/// one round early or late, and the look again after standing down keeps any pending call its own.
/// </remarks>
internal sealed class ReaderGate
{
    private readonly object _gate = new();
    private bool _wanted;
    private bool _closed;
    private volatile bool _callersRead;
    private int _waiting;

    /// <summary>Whether the reader is reading or about to (for tests).</summary>
    internal bool IsWanted
    {
        get
        {
            lock (_gate)
            {
                return _wanted;
            }
        }
    }

    /// <summary>Readers blocked in <see cref="WaitUntilWanted"/> right now (for tests).</summary>
    internal int Waiting
    {
        get
        {
            lock (_gate)
            {
                return _waiting;
            }
        }
    }

    /// <summary>Asks the reader to read, and to keep watching: a call no caller is reading for, or the server's last word. Wakes it if it stood down.</summary>
    public void Want()
    {
        _callersRead = false;
        lock (_gate)
        {
            if (_wanted)
            {
                return;
            }

            _wanted = true;
            Monitor.Pulse(_gate);
        }
    }

    /// <summary>A caller read its own reply: the reader may stand down when it finds no call left to it.</summary>
    public void CallerRead() => _callersRead = true;

    /// <summary>
    /// The reader found no call left to it: it stands down if callers read their own replies lately (true),
    /// and then asks again with <see cref="Want"/> if a call arrived meanwhile; otherwise it keeps watching.
    /// </summary>
    public bool StandDownIfCallersRead()
    {
        lock (_gate)
        {
            if (!_callersRead)
            {
                return false;
            }

            _wanted = false;
            return true;
        }
    }

    /// <summary>On the reader thread: returns when it is wanted (true) or the connection ended (false).</summary>
    public bool WaitUntilWanted()
    {
        lock (_gate)
        {
            while (!_wanted && !_closed)
            {
                _waiting++;
                Monitor.Wait(_gate);
                _waiting--;
            }

            return !_closed;
        }
    }

    /// <summary>The connection ended: the reader stops waiting.</summary>
    public void Close()
    {
        lock (_gate)
        {
            _closed = true;
            Monitor.PulseAll(_gate);
        }
    }
}
