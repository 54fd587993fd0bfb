using System.CommandLine;
using System.Text.Json;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.Cli;

/// <summary>The rpcc command tree: call, health, bindings, operations.</summary>
internal static class RpccCommands
{
    public const int Ok = 0;
    public const int CallFailed = 1;
    public const int UsageError = 2;

    private static readonly JsonSerializerOptions s_json = new() { WriteIndented = true };

    public static RootCommand Create(TextWriter output, TextWriter error)
    {
        var root = new RootCommand("rpcc: call any RpcCompare operation over any binding and print the reply as JSON.");
        root.Subcommands.Add(CreateCall(output, error));
        root.Subcommands.Add(CreateHealth(output, error));
        root.Subcommands.Add(CreateBindings(output));
        root.Subcommands.Add(CreateOperations(output));
        return root;
    }

    private static Command CreateCall(TextWriter output, TextWriter error)
    {
        var target = new ServerTarget("Binding to call over (see 'rpcc bindings').");
        var operation = new Argument<string>("operation") { Description = "Operation to call (see 'rpcc operations')." };
        operation.AcceptOnlyFromAmong([.. CliOperations.All.Select(o => o.Name)]);
        var path = new Option<string?>("--path") { Description = "Path relative to the data root." };
        var count = new Option<int>("--count") { Description = "WriteAt: bytes per write (0 means 100)." };
        var offset = new Option<long?>("--offset") { Description = "WriteAt: offset from the start of the file; left out (or negative): the middle." };
        var repeat = new Option<int>("--repeat") { Description = "WriteAt: writes in this one call (0 means 1)." };
        var value = new Option<int>("--value") { Description = "TakeInt, Increment: the int argument." };
        var size = new Option<int>("--size") { Description = "Payload operations: payload size in bytes.", DefaultValueFactory = _ => 10 };
        var text = new Option<string?>("--text") { Description = "SendString: the string to send." };
        var x = new Option<int>("--x") { Description = "TakePoint: X." };
        var y = new Option<int>("--y") { Description = "TakePoint: Y." };
        var z = new Option<int>("--z") { Description = "TakePoint: Z." };
        var weight = new Option<double>("--weight") { Description = "TakePoint: weight." };

        var call = new Command("call", "Call one operation and print its reply, or the error.")
        {
            operation, path, count, offset, repeat, value, size, text, x, y, z, weight,
        };
        foreach (var option in target.Options)
        {
            call.Options.Add(option);
        }

        call.SetAction(async (parse, cancellationToken) =>
        {
            if (target.Resolve(parse, error) is not var (resolvedAddress, factory))
            {
                return UsageError;
            }

            using var _ = factory;

            var arguments = new OperationArguments(
                parse.GetValue(path), parse.GetValue(count), parse.GetValue(offset), parse.GetValue(repeat), parse.GetValue(value),
                parse.GetValue(size), parse.GetValue(text), parse.GetValue(x), parse.GetValue(y), parse.GetValue(z), parse.GetValue(weight));
            return await CallAsync(factory, target.Binding(parse), resolvedAddress, CliOperations.Find(parse.GetValue(operation)!)!, arguments, output, error);
        });
        return call;
    }

    private static Command CreateHealth(TextWriter output, TextWriter error)
    {
        var target = new ServerTarget("A binding with a standard health service: grpc-tcp or grpc-uds.");
        var service = new Option<string>("--service") { Description = "Service to ask about, e.g. rpccompare.v1.FileService (default: the server as a whole).", DefaultValueFactory = _ => "" };
        var health = new Command("health", "Ask the server's standard health service (grpc.health.v1) and print its status; exit 0 only when SERVING.")
        {
            service,
        };
        foreach (var option in target.Options)
        {
            health.Options.Add(option);
        }

        health.SetAction(async (parse, cancellationToken) =>
        {
            if (target.Resolve(parse, error) is not var (resolvedAddress, factory))
            {
                return UsageError;
            }

            using var _ = factory;
            var bindingName = target.Binding(parse);

            try
            {
                var status = await factory.CheckHealthAsync(bindingName, resolvedAddress, parse.GetValue(service)!, cancellationToken);
                await output.WriteLineAsync(status);
                return status == "SERVING" ? Ok : CallFailed;
            }
            catch (Exception exception) when (exception is NotSupportedException or ArgumentException)
            {
                await error.WriteLineAsync($"error: {exception.Message}");
                return UsageError;
            }
            catch (Grpc.Core.RpcException exception) when (exception.StatusCode == Grpc.Core.StatusCode.NotFound)
            {
                await error.WriteLineAsync($"error: the server's health service knows no service '{parse.GetValue(service)}' (NotFound).");
                return CallFailed;
            }
            catch (Grpc.Core.RpcException exception)
            {
                await error.WriteLineAsync($"error: {exception.Status.StatusCode}: {exception.Status.Detail}");
                return CallFailed;
            }
        });
        return health;
    }

    private static async Task<int> CallAsync(RpcClientFactory factory, string binding, string address, CliOperation operation, OperationArguments arguments, TextWriter output, TextWriter error)
    {
        try
        {
            await using var clients = new RpcClientSession(factory, binding, address);
            var reply = await operation.InvokeAsync(clients, arguments);
            await output.WriteLineAsync(reply is null ? "{}" : JsonSerializer.Serialize(reply, reply.GetType(), s_json));
            return Ok;
        }
        catch (RpcServiceException exception)
        {
            await error.WriteLineAsync($"error: {exception.Code}: {exception.Message}");
            return CallFailed;
        }
        catch (Exception exception) when (exception is NotSupportedException or ArgumentException)
        {
            await error.WriteLineAsync($"error: {exception.Message}");
            return UsageError;
        }
        catch (Exception exception) when (exception is IOException or DirectoryNotFoundException or TimeoutException)
        {
            await error.WriteLineAsync($"error: {exception.Message}");
            return CallFailed;
        }
        catch (Exception exception) when (exception is System.ServiceModel.CommunicationException or Grpc.Core.RpcException or HttpRequestException)
        {
            // The framework's own failure (unreachable, refused, TLS): its innermost reason is the one that says what to do.
            await error.WriteLineAsync($"error: {binding} at {address}: {Innermost(exception).Message}");
            return CallFailed;
        }
    }

    private static Exception Innermost(Exception exception)
    {
        var inner = exception is Grpc.Core.RpcException { Status.DebugException: { } debug } ? debug : exception;
        while (inner.InnerException is { } next)
        {
            inner = next;
        }

        return inner;
    }

    private static Command CreateBindings(TextWriter output)
    {
        IReadOnlyList<string> available;
        using (var factory = RpcClientFactory.CreateDefault())
        {
            available = factory.Bindings;
        }

        var command = new Command("bindings", "List every binding and whether this build can call it.");
        command.SetAction(_ =>
        {
            foreach (var name in BindingNames.All)
            {
                var status = available.Contains(name) ? "available" : "not in this build";
                output.WriteLine($"{name,-12} {status}");
            }

            return Ok;
        });
        return command;
    }

    private static Command CreateOperations(TextWriter output)
    {
        var command = new Command("operations", "List every operation rpcc can call.");
        command.SetAction(_ =>
        {
            foreach (var operation in CliOperations.All)
            {
                output.WriteLine($"{operation.Name,-14} {operation.Description}");
            }

            return Ok;
        });
        return command;
    }
}
