using Microsoft.AspNetCore.Connections;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// Gives a connection's first bytes a deadline. Kestrel bounds an HTTP/1.1 request's headers
/// (RequestHeadersTimeout) but not the HTTP/2 connection preface: a client that sent half of it
/// and stalled held its connection until the idle timeout (2 minutes, measured here). This
/// middleware waits for the preface's length in bytes, consumes none of them (the server then
/// reads them as usual), and closes the connection, counted as stalled, if they do not all come
/// within the handshake timeout.
/// </summary>
public static class PrefaceTimeout
{
    /// <summary>The HTTP/2 client connection preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", in bytes.</summary>
    public const int Http2PrefaceLength = 24;

    /// <summary>Adds the deadline to a listener's connection pipeline.</summary>
    public static void AddTo(IConnectionBuilder listener, int prefaceLength, TimeSpan timeout, ConnectionIncidents incidents)
    {
        ArgumentNullException.ThrowIfNull(listener);
        listener.Use(next => async connection =>
        {
            switch (await WaitForPrefaceAsync(connection, prefaceLength, timeout))
            {
                case Preface.Arrived:
                    await next(connection);
                    break;
                case Preface.TimedOut:
                    incidents.Add(ConnectionIncident.Stalled, "preface timeout");
                    break;
                default:
                    break; // The client left first: nothing to count, and the connection ends here.
            }
        });
    }

    private enum Preface
    {
        Arrived,
        TimedOut,
        ClientLeft,
    }

    // Arrived once the first prefaceLength bytes are buffered, or the client finished sending (the server reports a short preface itself).
    private static async Task<Preface> WaitForPrefaceAsync(ConnectionContext connection, int prefaceLength, TimeSpan timeout)
    {
        var input = connection.Transport.Input;
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(connection.ConnectionClosed);
        deadline.CancelAfter(timeout);
        try
        {
            while (true)
            {
                var result = await input.ReadAsync(deadline.Token);
                if (result.Buffer.Length >= prefaceLength || result.IsCompleted || result.IsCanceled)
                {
                    input.AdvanceTo(result.Buffer.Start); // nothing consumed, nothing examined: the server reads it all again
                    return Preface.Arrived;
                }

                input.AdvanceTo(result.Buffer.Start, result.Buffer.End); // wait for more than what is here
            }
        }
        catch (OperationCanceledException)
        {
            return connection.ConnectionClosed.IsCancellationRequested ? Preface.ClientLeft : Preface.TimedOut;
        }
    }
}
