using System.Net.Sockets;

namespace RpcCompare.Bindings.Hosting;

/// <summary>
/// A Unix socket file outlives a server killed with SIGKILL (or a crash): nothing removes it, and
/// binding to its path then fails with "address already in use" until someone deletes it by hand.
/// Before binding, the Unix-socket bindings remove such a file when nothing answers on it, and
/// refuse clearly when a live server does.
/// </summary>
public static class StaleSocketFile
{
    public static void RemoveIfStale(string path)
    {
        if (!File.Exists(path))
        {
            return;
        }

        using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            probe.Connect(new UnixDomainSocketEndPoint(path));
        }
        catch (SocketException exception) when (exception.SocketErrorCode is SocketError.ConnectionRefused or SocketError.AddressNotAvailable)
        {
            // Nobody listens. Connecting to a regular file is refused the same way, so make sure
            // it is a socket (left behind by a server that did not shut down) before deleting it.
            if (!IsSocketFile(path))
            {
                throw new InvalidOperationException($"'{path}' exists and is not a socket; remove it or give this binding another path.");
            }

            File.Delete(path);
            return;
        }
        catch (SocketException)
        {
            return; // Gone in the meantime, or not a socket: let the bind report what is wrong.
        }

        throw new InvalidOperationException($"'{path}' is the socket of a server that is still running; stop it or give this binding another path.");
    }

    // .NET has no file-type query on Unix; a socket is the one kind of file open(2) refuses with
    // ENXIO, which .NET reports as an IOException. A file that opens, or that this process may not
    // read, is not one to delete.
    private static bool IsSocketFile(string path)
    {
        try
        {
            using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read);
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
        catch (IOException)
        {
            return true;
        }
    }
}
