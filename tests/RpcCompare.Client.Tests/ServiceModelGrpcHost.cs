using System.Net;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ServiceModel.Grpc.Client;
using ServiceModel.Grpc.Configuration;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The peer library measured by itself: an implementation hosted with ServiceModel.Grpc alone (its
/// protobuf marshaller, no RpcCompare binding code) on 127.0.0.1 and called through ServiceModel.Grpc's
/// own client, so the compatibility matrix's ServiceModel.Grpc column says what that library does with
/// each corpus contract, not what our rules say about it.
/// </summary>
internal static class ServiceModelGrpcHost
{
    /// <summary>What happened: the transcript, or where and how it failed.</summary>
    public static async Task<(string? Transcript, string? Failure)> RunAsync<TContract, TImplementation>(Func<TContract, Task<string>> script)
        where TContract : class
        where TImplementation : class, TContract
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(o => o.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
        builder.Services.AddSingleton<TImplementation>();
        builder.Services.AddServiceModelGrpc(o => o.DefaultMarshallerFactory = new ProtobufMarshallerFactory());
        await using var application = builder.Build();
        try
        {
            application.MapGrpcService<TImplementation>();
            await application.StartAsync().Bounded();
        }
        catch (Exception e)
        {
            return (null, $"the host does not start: {Describe(e)}");
        }

        try
        {
            using var channel = GrpcChannel.ForAddress(application.Urls.Single());
            var client = new ClientFactory(new ServiceModelGrpcClientOptions { MarshallerFactory = new ProtobufMarshallerFactory() }).CreateClient<TContract>(channel);
            return (await script(client).Bounded(), null);
        }
        catch (Exception e)
        {
            return (null, $"a call fails: {Describe(e)}");
        }
        finally
        {
            await application.StopAsync().Bounded();
        }
    }

    /// <summary>The innermost exception's type and first line: what a team would read.</summary>
    private static string Describe(Exception exception)
    {
        var inner = exception;
        while (inner.InnerException is not null && inner is not Grpc.Core.RpcException)
        {
            inner = inner.InnerException;
        }

        var message = inner.Message.Split('\n')[0].Trim();
        return $"{inner.GetType().Name}: {message}";
    }
}
