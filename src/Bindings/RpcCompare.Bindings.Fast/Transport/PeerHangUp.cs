using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// Whether the peer has hung up while bytes it sent before are still unread: a poll() for POLLRDHUP
/// (Linux). Socket.Poll cannot say it, as the bytes ahead of the hang-up make the socket readable.
/// The server asks while a request stream waits for its service to read on (<c>InboundStream</c>):
/// a client that timed out or cancelled has closed its connection, and its service must be told.
/// </summary>
internal static partial class PeerHangUp
{
    private const short PollReadHangUp = 0x2000; // POLLRDHUP
    private const short PollError = 0x8;         // POLLERR
    private const short PollHangUp = 0x10;       // POLLHUP
    private const short PollInvalid = 0x20;      // POLLNVAL

    /// <summary>True when the peer shut down its sending side or the connection failed; false elsewhere than Linux, where nothing can tell.</summary>
    public static bool HasHappened(Socket socket)
    {
        if (!OperatingSystem.IsLinux())
        {
            return false;
        }

        var handle = socket.SafeHandle;
        var added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            var descriptor = new PollDescriptor { Descriptor = (int)handle.DangerousGetHandle(), Events = PollReadHangUp };
            return Poll(ref descriptor, 1, 0) > 0 && (descriptor.ReturnedEvents & (PollReadHangUp | PollError | PollHangUp | PollInvalid)) != 0;
        }
        catch (ObjectDisposedException)
        {
            return true;
        }
        finally
        {
            if (added)
            {
                handle.DangerousRelease();
            }
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct PollDescriptor
    {
        public int Descriptor;
        public short Events;
        public short ReturnedEvents;
    }

    [LibraryImport("libc", EntryPoint = "poll")]
    private static partial int Poll(ref PollDescriptor descriptors, nuint count, int timeoutMilliseconds);
}
