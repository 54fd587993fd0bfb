using System.Text;
using CoreWCF.Channels;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.Wcf.Push.LongPoll;
using RpcCompare.Bindings.Wcf.Server;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>
/// wcf-http's answer to a caller the host does not serve (<see cref="ConnectionCaller"/>): given
/// before CoreWCF reads the request, so a refused client never reaches the SOAP parser, in the
/// form its kind of client reads. A SOAP call gets the typed PermissionDenied fault every operation
/// declares, the long-poll endpoints their JSON error, anything else (a ?wsdl GET) a 403 with the
/// reason. The connection is closed after the answer.
/// </summary>
internal static class HttpCallerRefusal
{
    private const string NoAddressing = "http://schemas.microsoft.com/ws/2005/05/addressing/none";
    private static readonly MessageEncoder s_soap = new TextMessageEncodingBindingElement(MessageVersion.Soap11, Encoding.UTF8).CreateMessageEncoderFactory().Encoder;

    /// <summary>Adds the check in front of everything else <paramref name="application"/> serves.</summary>
    public static void AddTo(IApplicationBuilder application) =>
        application.Use(async (context, next) =>
        {
            if (ConnectionCaller.RefusalOf(context.Features) is { } refusal)
            {
                await AnswerAsync(context, new RpcServiceException(RpcErrorCode.PermissionDenied, refusal));
                return;
            }

            await next(context);
        });

    private static async Task AnswerAsync(HttpContext context, RpcServiceException refusal)
    {
        context.Features.Get<IConnectionLifetimeNotificationFeature>()?.RequestClose();
        var response = context.Response;
        if (context.Request.Path.StartsWithSegments("/" + LongPollWire.Root))
        {
            response.StatusCode = StatusCodes.Status403Forbidden;
            await response.WriteAsJsonAsync(new LongPollWire.ErrorReply(refusal.Code, refusal.Message), LongPollWire.Json);
        }
        else if (HttpMethods.IsPost(context.Request.Method))
        {
            // As RpcFaultBehavior sends a refusal, with SOAP 1.1 (BasicHttpBinding's version); HTTP 500, as SOAP 1.1 faults go.
            // Encoded to memory first: CoreWCF's encoder writes synchronously, which Kestrel's response body refuses.
            using var fault = RpcFaultBehavior.FaultMessage(MessageVersion.Soap11, refusal);
            // Without WS-Addressing the action is not a header: CoreWCF's HTTP transport takes it out
            // before encoding, and a client rejects a reply that keeps it (mustUnderstand).
            fault.Headers.RemoveAll("Action", NoAddressing);
            using var body = new MemoryStream();
            await s_soap.WriteMessageAsync(fault, body);
            response.StatusCode = StatusCodes.Status500InternalServerError;
            response.ContentType = s_soap.ContentType;
            response.ContentLength = body.Length;
            await response.Body.WriteAsync(body.GetBuffer().AsMemory(0, (int)body.Length));
        }
        else
        {
            response.StatusCode = StatusCodes.Status403Forbidden;
            response.ContentType = "text/plain; charset=utf-8";
            await response.WriteAsync(refusal.Message);
        }
    }
}
