namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// When a <see cref="MultiplexedConnection"/>'s reader thread waits on the socket. It waits only while
/// some call is left to it: a caller that read its own reply within its spin never wakes it. A reader
/// left in <c>poll()</c> all the time was woken by every reply the caller was already reading, and on
/// two cores that wake-up took the core the other process needed (at 248,832 B the Task calls ran at
/// two thirds of the caller-thread way).
/// </summary>
/// <remarks>
/// The flag is only read and written under the gate's lock, so a caller's "is anyone reading?" and
/// the reader's "stand down, then look again for calls" cannot both miss each other.
/// </remarks>
internal sealed class ReaderGate
{
    private readonly object _gate = new();
    private bool _wanted;
    private bool _closed;

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

    /// <summary>Asks the reader to read: a call no caller is reading for, or the server's last word. Wakes it if it stood down.</summary>
    public void Want()
    {
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

    /// <summary>The reader found no call left to read for; it asks again with <see cref="Want"/> if one arrived meanwhile.</summary>
    public void StandDown()
    {
        lock (_gate)
        {
            _wanted = false;
        }
    }

    /// <summary>On the reader thread: returns when it is wanted (true) or the connection ended (false).</summary>
    public bool WaitUntilWanted()
    {
        lock (_gate)
        {
            while (!_wanted && !_closed)
            {
                Monitor.Wait(_gate);
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
