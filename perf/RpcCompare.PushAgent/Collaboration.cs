using RpcCompare.Bindings.Push;
using RpcCompare.Client;
using RpcCompare.Contracts.Push;

namespace RpcCompare.PushAgent;

/// <summary>
/// The original's collaboration scenario for this agent's rooms: every member subscribes to its
/// room and publishes in turn; the other members receive. Each room runs on its own, idle for the
/// interval after each publication, starting at a random offset so rooms do not publish in step.
/// </summary>
internal static class Collaboration
{
    public static async Task<AgentEvent> RunAsync(RpcClientFactory factory, AgentCommand command)
    {
        ArgumentException.ThrowIfNullOrEmpty(command.Binding);
        ArgumentException.ThrowIfNullOrEmpty(command.Address);
        var latencies = new List<double>();
        var members = new List<(string Id, IPushClient Client)>();
        string? error = null;
        try
        {
            var joins = new List<(string Id, string Topic)>();
            for (var room = command.FirstRoom; room < command.FirstRoom + command.Rooms; room++)
            {
                for (var member = 0; member < command.Members; member++)
                {
                    joins.Add(($"room-{room}/member-{member}", $"room-{room}"));
                }
            }

            var confirmed = 0;
            var deadlinePassed = await SubscribeDeadline.RunAsync(joins, async (join, cancellationToken) =>
            {
                var client = factory.CreatePushClient(command.Binding, command.Address, command.Variant);
                lock (members)
                {
                    members.Add((join.Id, client));
                }

                await client.SubscribeAsync(join.Topic, n =>
                {
                    // A member does not count its own publication.
                    if (n.Publisher != join.Id)
                    {
                        var latency = Latency.MillisecondsSince(n.SentTimestamp);
                        lock (latencies)
                        {
                            latencies.Add(latency);
                        }
                    }
                }, cancellationToken: cancellationToken);
                Interlocked.Increment(ref confirmed);
            });
            if (deadlinePassed && Volatile.Read(ref confirmed) < joins.Count)
            {
                throw new TimeoutException(SubscribeDeadline.Describe(joins.Count - confirmed, joins.Count, joins.Count));
            }

            var rooms = members.GroupBy(m => m.Id[..m.Id.IndexOf('/', StringComparison.Ordinal)]).ToList();
            var interval = TimeSpan.FromSeconds(command.IntervalSeconds);
            await Task.WhenAll(rooms.Select(room => RunRoomAsync(room.Key, [.. room.OrderBy(m => m.Id, StringComparer.Ordinal)], command, interval)));

            // Stragglers: wait a moment for what is still in flight.
            var expected = (long)command.Rooms * command.Iterations * (command.Members - 1);
            var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(5);
            while (Count(latencies) < expected && DateTime.UtcNow < deadline)
            {
                await Task.Delay(50);
            }

            double[] taken;
            lock (latencies)
            {
                taken = [.. latencies];
            }

            return new AgentEvent("collaborate", taken.Length, expected, taken);
        }
        catch (Exception exception)
        {
            error = $"{exception.GetType().Name}: {exception.Message}";
            return new AgentEvent("error", Error: error);
        }
        finally
        {
            await Task.WhenAll(members.Select(m => m.Client.DisposeAsync().AsTask()));
        }
    }

    private static async Task RunRoomAsync(string topic, List<(string Id, IPushClient Client)> members, AgentCommand command, TimeSpan interval)
    {
        await Task.Delay(TimeSpan.FromSeconds(Random.Shared.NextDouble() * command.IntervalSeconds));
        var items = Enumerable.Range(0, command.Items).Select(i => $"item {i}").ToList();
        for (var i = 0; i < command.Iterations; i++)
        {
            var (id, client) = members[i % members.Count];
            await client.PublishAsync(new Notification { Topic = topic, Publisher = id, SentTimestamp = System.Diagnostics.Stopwatch.GetTimestamp(), Items = items });
            await Task.Delay(interval);
        }
    }

    private static int Count(List<double> latencies)
    {
        lock (latencies)
        {
            return latencies.Count;
        }
    }
}
